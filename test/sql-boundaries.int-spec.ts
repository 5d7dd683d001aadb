import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const FIXTURES = 'test/fixtures/sql-boundaries';

/** Runs the SQL boundary check as `npm run lint` does; answers its exit code and the problems it lists. */
async function check(...paths: string[]): Promise<{ exitCode: number; problems: string[] }> {
  try {
    await run(process.execPath, [join(ROOT, 'scripts', 'check-sql-boundaries.cjs'), ...paths], { cwd: ROOT });
    return { exitCode: 0, problems: [] };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    if (failed.stderr === undefined) throw error;
    return {
      exitCode: failed.code ?? 1,
      problems: failed.stderr.split('\n').filter((line) => line.startsWith(FIXTURES) || /^(apps|libs|modules)\//.test(line)),
    };
  }
}

/** The database boundary: a context's SQL names its own schema and others' published views, in infrastructure only. */
describe('SQL boundary rules', () => {
  it("refuses another context's tables however they are written, SQL outside infrastructure/, and unqualified names", async () => {
    const { exitCode, problems } = await check(FIXTURES);
    expect(exitCode).toBe(1);
    const leaks = `${FIXTURES}/libs/alerts/src/infrastructure/leaky.repository.ts`;
    expect(problems.map((problem) => problem.replace(/ \(.*\)$/, ''))).toEqual([
      `${FIXTURES}/libs/alerts/src/api/leaky.controller.ts:5: SQL outside infrastructure/`,
      // A JOIN over lines with an alias, a quoted name, a concatenation, an unqualified name, a name kept in a
      // constant, a schema put on the search path, a sequence's table named as text.
      `${leaks}:6: libs/alerts names identity.users, which identity does not publish`,
      `${leaks}:13: libs/alerts names identity.organization_members, which identity does not publish`,
      `${leaks}:14: libs/alerts names webhooks.webhook_deliveries, which webhooks does not publish`,
      `${leaks}:15: issue_alert_rules is named without its schema`,
      `${leaks}:19: libs/alerts names identity.team_members, which identity does not publish`,
      `${leaks}:28: changes the search path, which stays the default so that every name says its schema`,
      `${leaks}:29: team_members is named without its schema`,
      `${leaks}:34: issue_alert_rules is named without its schema`,
      `${FIXTURES}/modules/ticket-tracker/src/infrastructure/leaky-tickets.repository.ts:5: modules/ticket-tracker names issues.issues, which issues does not publish`,
    ]);
  });

  it('passes the repository, whose contexts read each other only through published views and queries', async () => {
    expect(await check()).toEqual({ exitCode: 0, problems: [] });
  });
});
