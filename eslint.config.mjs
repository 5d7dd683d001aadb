import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // A regular expression built from a string can be one a user wrote, and V8's backtracks without
    // bound: wildcards go through `@faultline/kernel`'s linear matchers. Tests build their own
    // expectations; a safe use elsewhere says why on an eslint-disable comment.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['test/**', 'bench/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['NewExpression', 'CallExpression'].map((node) => ({
          selector: `${node}[callee.name='RegExp'][arguments.0.type!='Literal']`,
          message: 'No RegExp built from a string: match wildcards with GlobSet or LikePattern (@faultline/kernel), or split and compare.',
        })),
        // A Map of entries that expire is a hand-written TTL cache: unbounded, and without single-flight loads.
        {
          selector: "NewExpression[callee.name='Map'] TSPropertySignature[key.name=/^expires/i]",
          message:
            "No hand-written TTL cache: use lru-cache's LRUCache (max, ttl, fetchMethod + fetch() for single-flight loads), as in libs/identity/src/infrastructure/auth-cache.ts.",
        },
        // The event-id rule and the 32-hex id have one owner (libs/kernel/src/ids.ts): copies drifted apart (all-zero ids, dashes).
        {
          selector: 'Literal[regex.pattern=/\\{32\\}/]',
          message:
            'No 32-hex-digit pattern: call normalizeEventId / normalizeNonNilEventId (event ids) or isHexId (hook ids, DSN keys) of libs/kernel/src/ids.ts.',
        },
      ],
    },
  },
  {
    files: ['apps/api/src/cli.ts', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
