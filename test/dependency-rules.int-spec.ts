import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/**
 * Runs dependency-cruiser on some paths with the project's configuration: as CI does (its exit
 * code and report), and once more for the violations as JSON.
 */
async function cruise(...paths: string[]): Promise<{ exitCode: number; report: string; violations: Violation[] }> {
  const args = [DEPCRUISE, ...paths, '--config', '.dependency-cruiser.cjs'];
  const options = { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 };
  let exitCode = 0;
  let report: string;
  try {
    report = (await run(process.execPath, args, options)).stdout;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    if (failed.stdout === undefined) throw error;
    exitCode = failed.code ?? 1;
    report = failed.stdout;
  }
  const { stdout } = await run(process.execPath, [...args, '--output-type', 'json'], options);
  return { exitCode, report, violations: JSON.parse(stdout).summary.violations };
}

/** The rules refuse what they are for; the repository passing them is `npm run depcheck`, in `npm run lint`. */

/** The dependency rule covers extension modules: they reach contexts only through index.ts. */
describe('dependency rules for extension modules', () => {
  it("refuses a module that imports another context's internals", async () => {
    const { exitCode, report, violations } = await cruise('test/fixtures/modules');
    expect(exitCode).not.toBe(0);
    expect(report).toContain('error context-only-through-index');
    expect(violations).toEqual([
      expect.objectContaining({
        rule: expect.objectContaining({ name: 'context-only-through-index' }),
        from: 'test/fixtures/modules/leaky-module/src/index.ts',
        to: 'libs/issues/src/infrastructure/issue.repository.ts',
      }),
    ]);
  });
});

/**
 * What a context publishes (its index.ts, and contracts/, which index.ts re-exports) says what other
 * code may rely on: ports (abstract classes in contracts/ that the context's module binds to its
 * implementation), domain types and rules, event type names, and the commands and queries of
 * application/commands/ and application/queries/. Never a class or type of infrastructure/ (a
 * worker, a repository, an outbox) or api/ (a serializer), nor other application/ code (an
 * orchestrator): a consumer that needs one gets a port with just the methods it uses.
 */
describe('dependency rules for what a context publishes', () => {
  it('refuses an index.ts or contract that exports a worker, a serializer or application code', async () => {
    const { exitCode, report, violations } = await cruise('test/fixtures/contexts');
    expect(exitCode).not.toBe(0);
    expect(report).toContain('error contracts-publish-no-internals');
    const leaky = 'test/fixtures/contexts/libs/leaky/src';
    expect(violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }))).toEqual(
      expect.arrayContaining([
        { rule: 'contracts-publish-no-internals', from: `${leaky}/index.ts`, to: `${leaky}/infrastructure/prune.worker.ts` },
        { rule: 'contracts-publish-no-internals', from: `${leaky}/index.ts`, to: `${leaky}/api/events.serializers.ts` },
        { rule: 'contracts-publish-no-internals', from: `${leaky}/index.ts`, to: `${leaky}/application/prune-all.ts` },
        { rule: 'contracts-publish-no-internals', from: `${leaky}/contracts/leaky-port.ts`, to: `${leaky}/infrastructure/prune.worker.ts` },
      ]),
    );
    // Contracts, domain rules, commands and queries are what a context may publish.
    expect(violations).toHaveLength(4);
  });
});
