const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

// Nest 12 and several of its dependencies ship only as ES modules; Jest's CommonJS runtime needs
// them compiled. Listing every installed "type": "module" package keeps this true across upgrades.
function esmPackages(root = join(__dirname, 'node_modules')) {
  const names = [];
  for (const entry of readdirSync(root)) {
    const scoped = entry.startsWith('@');
    for (const name of scoped ? readdirSync(join(root, entry)).map((n) => `${entry}/${n}`) : [entry]) {
      try {
        if (JSON.parse(readFileSync(join(root, name, 'package.json'), 'utf8')).type === 'module') names.push(name);
      } catch {
        // not a package
      }
    }
  }
  return names.map((name) => name.replace(/[.+]/g, '\\$&'));
}
const ESM_PACKAGES = esmPackages();

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
  // Test support (the decider specification) lives beside the kernel, outside its index.
  moduleNameMapper: { '^@faultline/kernel/testing$': '<rootDir>/libs/kernel/src/testing', '^@faultline/(.*)$': '<rootDir>/libs/$1/src' },
  setupFiles: ['reflect-metadata'],
};

/** @type {import('jest').Config} */
const config = {
  // Without DATABASE_URL, one embedded PostgreSQL server for the whole run (test/support/global-setup.ts).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  transform: common.transform,
  // Tests that start the app, or a service process, get a minute.
  testTimeout: 60_000,
  // Each test file loads the app's modules afresh and a worker does not give all of that memory back:
  // run in band, the suite's heap grew past 3.5 GB and its GC pauses slowed the timing probes tenfold.
  // A worker that holds more than this after a file is replaced.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,modules}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,modules,test}/**/*.int-spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    },
  ],
};

module.exports = config;
