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

  it('passes the modules in the repository, which use only the public contracts', async () => {
    const { exitCode, violations } = await cruise('modules');
    expect(violations).toEqual([]);
    expect(exitCode).toBe(0);
  });
});
