/**
 * The rules of the house that the compiler cannot see: a bounded context (a library under libs/,
 * or an extension module under modules/) is reached only through its index.ts, and domain code
 * stays free of frameworks.
 */
module.exports = {
  forbidden: [
    {
      name: 'context-only-through-index',
      comment: 'Import another context through its index.ts (its contracts), never its internals.',
      severity: 'error',
      from: { path: '^(libs|apps|modules|test|bench)/([^/]+)/' },
      to: { path: '^(libs|modules)/([^/]+)/src/(?!index\\.ts$|testing/index\\.ts$)', pathNot: '^(libs|modules)/$2/' },
    },
    {
      name: 'contracts-publish-no-internals',
      comment:
        "A context's index.ts and contracts/ publish ports (abstract classes in contracts/), domain types and rules, and commands and queries: never a class or type of infrastructure/ or api/, nor application/ code other than application/commands/ and application/queries/. Bind the port to the implementation in the context's module.",
      severity: 'error',
      from: { path: '(^|/)libs/([^/]+)/src/(index\\.ts$|contracts/)' },
      to: { path: '(^|/)libs/$2/src/(infrastructure/|api/|application/(?!commands/|queries/))' },
    },
    {
      name: 'testing-support-only-in-tests',
      comment: "A library's testing/ module (e.g. the kernel's DeciderSpecification) serves specs and test support, never production code.",
      severity: 'error',
      from: { path: '^(libs|apps|modules|bench|migrations)/', pathNot: '(\\.spec|\\.int-spec|\\.e2e-spec)\\.ts$|^libs/[^/]+/src/testing/' },
      to: { path: '^libs/[^/]+/src/testing/' },
    },
    {
      name: 'domain-without-frameworks',
      comment: 'Domain code and the kernel import nothing from Nest, TypeORM or the HTTP layer.',
      severity: 'error',
      from: { path: '(^libs/[^/]+/src/domain/|^libs/kernel/)' },
      to: { path: '(^|/)node_modules/(@nestjs|typeorm|fastify|pg)/' },
    },
    {
      name: 'domain-not-outward',
      comment: 'Domain code depends on nothing of its own context but the domain and the kernel.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/' },
      to: { path: '^libs/([^/]+)/src/(api|application|infrastructure)/' },
    },
    {
      name: 'no-circular-contexts',
      severity: 'error',
      from: { path: '^libs/' },
      to: { circular: true, path: '^libs/', pathNot: '^libs/kernel/', viaOnly: { path: '^libs/[^/]+/src/index\\.ts$' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'] },
  },
};
