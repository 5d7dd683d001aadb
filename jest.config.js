

// Nest 12 and a few of its dependencies ship only as ES modules; Jest's CommonJS runtime needs them compiled.
const ESM_PACKAGES = ['@nestjs', 'uid', 'file-type', 'cookie', 'strtok3', 'token-types', 'peek-readable', '@tokenizer', 'load-esm', 'es-toolkit'];

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|m?j)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: { '^@faultline/(.*)$': '<rootDir>/libs/$1/src' },
  setupFiles: ['reflect-metadata'],
};

// Tests that need several connections at once (concurrency, visibility) run only against a server.
const serverOnly = process.env.DATABASE_URL ? [] : ['\\.server\\.int-spec\\.ts$'];

/** @type {import('jest').Config} */
const config = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...serverOnly],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};

module.exports = config;
