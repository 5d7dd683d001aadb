import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, Database, dataSourceOptionsFrom, loadConfig } from '@faultline/platform';
import { HELP, runCli } from '../../apps/api/src/cli-commands';
import { MIGRATIONS } from '../../migrations';
import { createTestDatabaseUrl, dropTestDatabase } from '../support/test-database';

/** The admin CLI against its own database, as `npm run cli -- ...` runs it. */
describe('admin CLI', () => {
  let databaseUrl: string | undefined;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  const cli = async (...args: string[]): Promise<string[]> => {
    const lines: string[] = [];
    await runCli(args, env, (line) => lines.push(line));
    return lines;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabaseUrl();
    dataDir = mkdtempSync(join(tmpdir(), 'faultline-cli-'));
    env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://errors.example.com', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  });

  afterAll(async () => {
    await dropTestDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints help', async () => {
    expect(await cli('--help')).toEqual([HELP]);
    expect(HELP).toContain('create-project');
  });

  it('migrates, then creates a user, organization, project and tokens, and prints the DSN', async () => {
    expect((await cli('migrate'))[0]).toMatch(/^Applied: EventStore/);
    expect(await cli('migrate')).toEqual(['Database is up to date.']);
    expect((await cli('create-user', '--email', 'ops@example.com', '--name', 'Ops'))[0]).toMatch(/^Created user \d+$/);
    expect(await cli('create-org', '--name', 'Example Inc', '--slug', 'example', '--owner', 'ops@example.com')).toEqual([
      expect.stringMatching(/^Created organization example/),
    ]);

    await expect(cli('create-project', '--org', 'example', '--team', 'nope', '--name', 'Web')).rejects.toThrow('The requested resource does not exist');

    const token = await cli('create-token', '--email', 'ops@example.com', '--scopes', 'org:read');
    expect(token[0]).toMatch(/^sntryu_[0-9a-f]{64}$/);
    const orgToken = await cli('create-token', '--org', 'example', '--scopes', 'project:read');
    expect(orgToken[0]).toMatch(/^sntrys_/);
    expect((await cli('set-plan', '--org', 'example', '--plan', 'business'))[0]).toBe('Plan set to business');
    await expect(cli('set-plan', '--org', 'example', '--plan', 'gold')).rejects.toThrow(/plan/);
  });

  it('creates a team and a project under it, and prints its DSN in Sentry format', async () => {
    expect((await cli('create-team', '--org', 'example', '--name', 'Web Team'))[0]).toMatch(/^Created team \d+$/);
    const created = await cli('create-project', '--org', 'example', '--team', 'web-team', '--name', 'Web App', '--platform', 'javascript');
    expect(created.join('\n')).toMatch(/^Created project \d+\nDSN: https:\/\/[0-9a-f]{32}@errors\.example\.com\/\d+$/);
    const dsn = await cli('dsn', '--org', 'example', '--project', 'web-app');
    expect(dsn).toEqual([created[0] && expect.stringMatching(/^https:\/\/[0-9a-f]{32}@errors\.example\.com\/\d+$/)]);
    await expect(cli('dsn', '--org', 'example', '--project', 'missing')).rejects.toThrow('no such project');
  });

  it('sets a web sign-in password: generated and printed, or read from FAULTLINE_PASSWORD', async () => {
    const [generated] = await cli('set-password', '--email', 'ops@example.com');
    expect(generated).toMatch(/^Password for ops@example\.com: [\w-]{24}$/);
    const chosen: string[] = [];
    await runCli(['set-password', '--email', 'OPS@example.com'], { ...env, FAULTLINE_PASSWORD: 'a long enough password' }, (line) => chosen.push(line));
    expect(chosen).toEqual(['Password set for OPS@example.com']);
    await expect(runCli(['set-password', '--email', 'ops@example.com'], { ...env, FAULTLINE_PASSWORD: 'short' }, () => undefined)).rejects.toThrow(
      /at least 8/,
    );
    await expect(cli('set-password', '--email', 'nobody@example.com')).rejects.toThrow('No user with e-mail nobody@example.com');
  });

  it('lists dead letters, moves them back to the queue and deletes them', async () => {
    const sql = async <T>(work: (database: Database) => Promise<T>): Promise<T> => {
      const dataSource = await createDataSource(dataSourceOptionsFrom(loadConfig(env), databaseUrl as string, MIGRATIONS));
      await dataSource.initialize();
      try {
        return await work(new Database(dataSource));
      } finally {
        await dataSource.destroy();
      }
    };
    await sql((database) =>
      database.execute(
        `INSERT INTO ingest.ingest_dead_letters (project_id, project_slug, organization_id, event_id, received_at, payload, attempts, reason)
         SELECT p.id, p.slug, p.organization_id, e.event_id, now(), '{"message":"x"}', 1, 'value too long'
         FROM projects.projects p, (VALUES ('a'), ('b')) AS e (event_id) WHERE p.slug = 'web-app'`,
      ),
    );
    const listed = await cli('dead-letters', 'list', '--org', 'example', '--project', 'web-app');
    expect(listed).toEqual([
      expect.stringMatching(/^\d+\t\S+\tproject \d+ \(web-app\)\tevent b\t1 attempt\(s\)\tvalue too long$/),
      expect.stringContaining('event a'),
    ]);
    expect(await cli('dead-letters', 'list')).toEqual(listed);
    const [oldest] = listed[1].split('\t');
    expect(await cli('dead-letters', 'retry', '--id', oldest)).toEqual(['Moved 1 dead letter(s) back to the queue.']);
    expect(await cli('dead-letters', 'delete', '--all', '--org', 'example')).toEqual(['Deleted 1 dead letter(s).']);
    expect(await cli('dead-letters', 'list', '--org', 'example')).toEqual(['No dead letters.']);
    expect(await sql((database) => database.query(`SELECT event_id, attempts FROM ingest.ingest_queue`))).toEqual([{ event_id: 'a', attempts: 0 }]);

    await expect(cli('dead-letters', 'retry')).rejects.toThrow('give either --id N or --all');
    await expect(cli('dead-letters', 'delete', '--id', '1', '--all')).rejects.toThrow('give either --id N or --all');
    await expect(cli('dead-letters', 'list', '--project', 'web-app')).rejects.toThrow('--project needs --org');
    await expect(cli('dead-letters', 'list', '--org', 'example', '--project', 'missing')).rejects.toThrow('no project missing in example');
    await expect(cli('dead-letters', 'forget')).rejects.toThrow('dead-letters takes list, retry or delete');
  });

  it('explains what is missing', async () => {
    await expect(cli('create-org', '--name', 'X')).rejects.toThrow('--owner is required');
    await expect(cli('frobnicate')).rejects.toThrow('unknown command: frobnicate');
  });
});
