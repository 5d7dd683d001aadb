import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TESTS = ['test/**', 'bench/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'];

// A regular expression built from a string can be one a user wrote, and V8's backtracks without
// bound: wildcards go through `@faultline/kernel`'s linear matchers. Tests build their own
// expectations; a safe use elsewhere says why on an eslint-disable comment.
const NO_REGEXP_FROM_STRING = ['NewExpression', 'CallExpression'].map((node) => ({
  selector: `${node}[callee.name='RegExp'][arguments.0.type!='Literal']`,
  message: 'No RegExp built from a string: match wildcards with GlobSet or LikePattern (@faultline/kernel), or split and compare.',
}));

// A row id is checked in one place: the inline copies had drifted to 18 digits, short of PostgreSQL's bigint.
const NO_INLINE_NUMERIC_ID = [
  {
    selector: String.raw`Literal[regex.pattern=/^\^(\\d|\[0-9\])\{1,1[89]\}\$$/]`,
    message: 'use isNumericId from @faultline/kernel',
  },
];

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
  // no-restricted-syntax: each entry names the owner to call instead. ESLint keeps one list per file
  // (the last matching object's), so every object below spreads all the lists that apply to its files.
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: [...TESTS, 'libs/kernel/src/ids.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_REGEXP_FROM_STRING, ...NO_INLINE_NUMERIC_ID] },
  },
  {
    // The owner of the row-id rule.
    files: ['libs/kernel/src/ids.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_REGEXP_FROM_STRING] },
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
