import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { embeddedPaths, lockDataDir, runningServerUrl } from '../../libs/embedded-postgres/src';
import { buildService, freePort, type Run, runCompiled, startCompiledService, until } from '../support/compiled-service';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build', `embedded-${process.pid}`);
const TOKEN = 'embedded-token';

/** Running, and not a zombie: a server orphaned by kill -9 is reaped by whichever process adopts it, or not at all. */
const isRunning = (pid: number) => {
  try {
    return !/^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

const runNode = (script: string, args: string[], env: Record<string, string>): Run => runCompiled(BUILD, script, args, env);

/**
 * `npm start` with nothing configured: the service runs PostgreSQL itself under DATA_DIR, keeps its
 * data across restarts and crashes, shares DATA_DIR with the CLI and with no second service.
 */
describe('embedded PostgreSQL under DATA_DIR', () => {
  let dataDir: string;
  let port: number;
  let service: Run | undefined;
  const started: ChildProcess[] = [];

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) } });

  async function startService(): Promise<Run> {
    const run = await startCompiledService(BUILD, dataDir, port, TOKEN);
    started.push(run.child);
    return run;
  }

  async function cli(...args: string[]): Promise<{ code: number | null; output: string }> {
    const run = runNode('cli.js', args, { DATA_DIR: dataDir });
    started.push(run.child);
    return run.exited;
  }

  const postmasterPid = () => Number(readFileSync(join(embeddedPaths(dataDir).cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);

  async function sendEvents(count: number): Promise<string[]> {
    const [key] = (await (await api('/api/0/projects/acme/web/keys/')).json()) as Array<{ projectId: string; public: string }>;
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const id = `${n.toString(16).padStart(8, '0')}${'c'.repeat(24)}`;
      const body = `${JSON.stringify({ event_id: id })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: `crash-safe ${n}`, level: 'error' })}\n`;
      const response = await fetch(`http://127.0.0.1:${port}/api/${key.projectId}/envelope/?sentry_key=${key.public}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-sentry-envelope' },
      });
      expect(response.status).toBe(200);
      ids.push(id);
    }
    return ids;
  }

  const stored = async (ids: string[]) =>
    (await Promise.all(ids.map(async (id) => (await api(`/api/0/projects/acme/web/events/${id}/`)).status))).every((s) => s === 200);

  beforeAll(async () => {
    buildService(BUILD);
    dataDir = mkdtempSync(join(tmpdir(), 'faultline-embedded-'));
    port = await freePort();
  });

  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    const url = existsSync(dataDir) ? runningServerUrl(dataDir) : undefined;
    if (url) process.kill(postmasterPid(), 'SIGQUIT');
    rmSync(BUILD, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('initialises a cluster on first start and serves from it', async () => {
    service = await startService();
    expect((await api('/api/0/projects/acme/web/')).status).toBe(200);
    const paths = embeddedPaths(dataDir);
    expect(existsSync(join(paths.cluster, 'PG_VERSION'))).toBe(true);
    expect(statSync(paths.password).mode & 0o777).toBe(0o600);
    expect(runningServerUrl(dataDir)).toMatch(/^postgresql:\/\//);
  });

  it("lets the CLI work on the running service's database", async () => {
    const created = await cli('create-user', '--email', 'ops@example.com');
    expect(created).toEqual({ code: 0, output: expect.stringMatching(/^Created user \d+\n$/) });
    const dsn = await cli('dsn', '--org', 'acme', '--project', 'web');
    // The CLI has neither PORT nor PUBLIC_URL: its DSN names the port the service listens at.
    expect(dsn).toEqual({ code: 0, output: expect.stringMatching(new RegExp(`^http://[0-9a-f]{32}@127\\.0\\.0\\.1:${port}/\\d+\\n$`)) });

    const { code, output } = await cli('database-url');
    expect(code).toBe(0);
    const client = new Client({ connectionString: output.trim() });
    await client.connect();
    try {
      expect((await client.query(`SELECT email FROM identity.users WHERE email = 'ops@example.com'`)).rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('refuses a second service on the same DATA_DIR with a clear message', async () => {
    const second = runNode('main.js', [], { DATA_DIR: dataDir, PORT: String(await freePort()) });
    started.push(second.child);
    const { code, output } = await second.exited;
    expect(code).toBe(1);
    expect(output).toContain(`The embedded database in ${dataDir} is in use by another Faultline process (pid ${service!.child.pid})`);
  });

  it('after kill -9 leaves its server running, the next start stops that server and has every accepted event', async () => {
    const ids = await sendEvents(20);
    const orphan = postmasterPid();
    service!.child.kill('SIGKILL');
    await service!.exited;
    expect(isRunning(orphan)).toBe(true);

    service = await startService();
    expect(isRunning(orphan)).toBe(false);
    expect(postmasterPid()).not.toBe(orphan);
    await until(() => stored(ids), 30_000);
  });

  it('starts its server again when the server dies under it', async () => {
    const first = postmasterPid();
    process.kill(first, 'SIGKILL');
    const pidFile = join(embeddedPaths(dataDir).cluster, 'postmaster.pid');
    await until(
      async () => existsSync(pidFile) && postmasterPid() !== first && (await api('/api/0/projects/acme/web/').catch(() => undefined))?.status === 200,
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the service printed:\n${service!.output()}`);
    });
    expect(service!.child.exitCode).toBeNull();
  });

  it('stops its server on SIGTERM and keeps the data for the next start; the CLI then runs a server of its own', async () => {
    const ids = await sendEvents(3);
    await until(() => stored(ids), 30_000);
    service!.child.kill('SIGTERM');
    expect((await service!.exited).code).toBe(0);
    expect(existsSync(join(embeddedPaths(dataDir).cluster, 'postmaster.pid'))).toBe(false);
    const lock = await lockDataDir(dataDir);
    expect('release' in lock).toBe(true);
    if ('release' in lock) await lock.release();

    expect(await cli('create-user', '--email', 'later@example.com')).toEqual({ code: 0, output: expect.stringMatching(/^Created user \d+\n$/) });
    expect(existsSync(join(embeddedPaths(dataDir).cluster, 'postmaster.pid'))).toBe(false);

    service = await startService();
    expect(await stored(ids)).toBe(true);
    const again = await cli('create-user', '--email', 'later@example.com');
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/later@example\.com/);
  });

  it('detects a DATA_DIR written by PGlite and says how to move it over', async () => {
    const old = mkdtempSync(join(tmpdir(), 'faultline-pglite-'));
    try {
      mkdirSync(join(old, 'pglite'));
      writeFileSync(join(old, 'pglite', 'PG_VERSION'), '17\n');
      const run = runNode('main.js', [], { DATA_DIR: old, PORT: String(await freePort()) });
      started.push(run.child);
      const { code, output } = await run.exited;
      expect(code).toBe(1);
      expect(output).toContain('written by an earlier Faultline version (PGlite)');
      expect(output).toContain(`npm run migrate:pglite -- ${old}`);
      expect(existsSync(join(old, 'postgres'))).toBe(false);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
