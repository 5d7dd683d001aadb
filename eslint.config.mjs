import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TESTS = ['test/**', 'bench/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'];

// Entries for all non-test code. A regular expression built from a string can be one a user wrote,
// and V8's backtracks without bound: wildcards go through `@faultline/kernel`'s linear matchers. Tests
// build their own expectations; a safe use elsewhere says why on an eslint-disable comment.
const ONE_OWNER = [
  ...['NewExpression', 'CallExpression'].map((node) => ({
    selector: `${node}[callee.name='RegExp'][arguments.0.type!='Literal']`,
    message: 'No RegExp built from a string: match wildcards with GlobSet or LikePattern (@faultline/kernel), or split and compare.',
  })),
  // A Map of entries that expire is a hand-written TTL cache: unbounded, and without single-flight loads.
  {
    selector: "NewExpression[callee.name='Map'] TSPropertySignature[key.name=/^(expires|until|valid)/i]",
    message:
      "No hand-written TTL cache: use lru-cache's LRUCache (max, ttl, fetchMethod + fetch() for single-flight loads), as in libs/identity/src/infrastructure/auth-cache.ts.",
  },
  {
    // One load–decide–append step, so the expected version has one rule.
    selector: 'MemberExpression[property.name=/^(loadedVersion|pullPendingEvents)$/]',
    message: 'Append an aggregate through AggregateStreams (@faultline/event-store): it owns the expected version and the retry.',
  },
];

// Ids are checked in one place (libs/kernel/src/ids.ts): the inline copies had drifted apart (row ids
// to 18 digits, short of PostgreSQL's bigint; event ids on all-zero ids and dashes).
const NO_INLINE_ID_RULE = [
  {
    selector: String.raw`Literal[regex.pattern=/^\^(-\?)?(\\d|\[0-9\])\{1,1[89]\}\$$/]`,
    message: 'use isNumericId from @faultline/kernel',
  },
  {
    selector: 'Literal[regex.pattern=/\\{32\\}/]',
    message: 'No 32-hex-digit pattern: call normalizeEventId / normalizeNonNilEventId (event ids) or isHexId (hook ids, DSN keys) of libs/kernel/src/ids.ts.',
  },
];

// Expiry, windows and schedules follow the injected clock; an elapsed time is measured with
// performance.now(), and a place that must read the wall clock says why on an eslint-disable comment.
const NO_WALL_CLOCK = [
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'take the time from the injected CLOCK' },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'take the time from the injected CLOCK' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bench/results/**', '.test-build/**', 'test-artifacts/**'] },
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
    rules: { 'no-restricted-syntax': ['error', ...ONE_OWNER, ...NO_INLINE_ID_RULE] },
  },
  {
    // Server code takes the time from the injected CLOCK (tests replace it with a FixedClock).
    files: ['libs/**/*.ts', 'apps/api/**/*.ts'],
    ignores: [...TESTS, 'libs/kernel/src/ids.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_OWNER, ...NO_INLINE_ID_RULE, ...NO_WALL_CLOCK] },
  },
  {
    // The owner of the row-id rule.
    files: ['libs/kernel/src/ids.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_OWNER, ...NO_WALL_CLOCK] },
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
