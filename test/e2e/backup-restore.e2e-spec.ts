import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { embeddedPaths, runningServerUrl } from '../../libs/embedded-postgres/src';
import { buildService, freePort, runCompiled, startCompiledService, until } from '../support/compiled-service';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build', `backup-${process.pid}`);
const TOKEN = 'backup-token';
const run = promisify(execFile);

/**
 * An operator backs up the embedded database while the service takes SDK traffic, and restores it
 * into a new DATA_DIR, where a service serves everything that was stored before the backup began.
 */
describe('backup and restore of the embedded database', () => {
  const scratch: string[] = [];
  const started: ChildProcess[] = [];
  let dataDir: string;
  let file: string;

  const directory = (prefix: string) => {
    const path = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(path);
    return path;
  };

  async function cli(dir: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
    const run = runCompiled(BUILD, 'cli.js', args, { DATA_DIR: dir });
    started.push(run.child);
    return run.exited;
  }

  async function service(dir: string) {
    const port = await freePort();
    const run = await startCompiledService(BUILD, dir, port, TOKEN);
    started.push(run.child);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) } });
    return { run, api };
  }

  /** The ids of every event the project's list serves, following its Link header's cursors. */
  async function storedEventIds(api: (path: string) => Promise<Response>): Promise<string[]> {
    const ids: string[] = [];
    for (let path: string | undefined = '/api/0/projects/acme/web/events/?per_page=100'; path;) {
      const response = await api(path);
      expect(response.status).toBe(200);
      ids.push(...((await response.json()) as Array<{ eventID: string }>).map((event) => event.eventID));
      const next = /<([^>]+)>; rel="next"; results="true"/.exec(response.headers.get('link') ?? '');
      path = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    return ids;
  }

  beforeAll(() => {
    buildService(BUILD);
    dataDir = directory('faultline-backed-up-');
    file = join(directory('faultline-backup-file-'), 'faultline.backup');
  });

  afterAll(() => {
    for (const child of started) child.kill('SIGKILL');
    for (const dir of scratch) {
      // A server whose service was killed outright is still running: stop it (fast shutdown).
      const url = existsSync(dir) ? runningServerUrl(dir) : undefined;
      if (url) process.kill(Number(readFileSync(join(embeddedPaths(dir).cluster, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
      rmSync(dir, { recursive: true, force: true });
    }
    rmSync(BUILD, { recursive: true, force: true });
  });

  it('backs up while the SDK sends events; a service on the restored DATA_DIR serves every event stored before, and takes new ones', async () => {
    const original = await service(dataDir);
    const [key] = (await (await original.api('/api/0/projects/acme/web/keys/')).json()) as Array<{ dsn: { public: string } }>;
    const sdk = spawn(process.execPath, [join(ROOT, 'test', 'support', 'sentry-client.cjs'), key.dsn.public, 'stream'], { stdio: 'ignore' });
    started.push(sdk);

    let before: string[] = [];
    await until(async () => (before = await storedEventIds(original.api)).length >= 10, 30_000);
    const backup = await cli(dataDir, 'backup', file);
    expect(backup).toEqual({ code: 0, output: expect.stringMatching(/^Backed up \d+ tables, \d+ rows .* to .*faultline\.backup/) });
    // The SDK went on sending during the backup, and the service on storing.
    expect(sdk.exitCode).toBeNull();
    await until(async () => (await storedEventIds(original.api)).length > before.length, 30_000);
    sdk.kill('SIGKILL');

    const restoredDir = directory('faultline-restored-');
    const restore = await cli(restoredDir, 'restore', file);
    expect(restore.output).toMatch(/a whole backup of Faultline [\d.]+ taken .*\nRestored \d+ tables, \d+ rows into /);
    expect(restore.code).toBe(0);

    const restored = await service(restoredDir);
    const served = new Set(await storedEventIds(restored.api));
    expect(before.filter((id) => !served.has(id))).toEqual([]);
    for (const id of before.slice(0, 3)) expect((await restored.api(`/api/0/projects/acme/web/events/${id}/`)).status).toBe(200);

    // The restored database takes new events and groups them: ids, sequences and the event store's order go on.
    const [restoredKey] = (await (await restored.api('/api/0/projects/acme/web/keys/')).json()) as Array<{ dsn: { public: string } }>;
    await run(process.execPath, [join(ROOT, 'test', 'support', 'sentry-client.cjs'), restoredKey.dsn.public, 'once'], { timeout: 30_000 });
    const titles = async () =>
      ((await (await restored.api('/api/0/projects/acme/web/issues/')).json()) as Array<{ title: string }>).map((issue) => issue.title);
    await until(async () => (await titles()).filter((title) => /^TypeError: Card declined|Inventory low/.test(title)).length === 2, 30_000);
    expect(await titles()).toEqual(expect.arrayContaining([expect.stringContaining('Heartbeat missed')]));
    // (Events the service had accepted but not yet stored when the backup began are in it too: stored now.)
    expect((await storedEventIds(restored.api)).length).toBeGreaterThanOrEqual(served.size + 2);
  }, 180_000);

  it('refuses a DATA_DIR that is not empty and a damaged backup, and leaves the directory as it was', async () => {
    const refused = await cli(dataDir, 'restore', file);
    expect(refused).toEqual({ code: 1, output: expect.stringContaining(`DATA_DIR ${dataDir} is not empty`) });

    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0x10;
    const damaged = join(directory('faultline-damaged-'), 'damaged.backup');
    writeFileSync(damaged, bytes);
    const emptyDir = directory('faultline-restore-target-');
    expect(await cli(emptyDir, 'check-backup', file)).toEqual({
      code: 0,
      output: expect.stringMatching(/: a whole backup of Faultline .*\nThis Faultline can restore it\.\n$/),
    });
    expect(await cli(emptyDir, 'check-backup', damaged)).toEqual({
      code: 1,
      output: expect.stringContaining('damaged.backup is not a whole Faultline backup: '),
    });
    const result = await cli(emptyDir, 'restore', damaged);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^Error: .*damaged\.backup is not a whole Faultline backup \(nothing was restored\): /);
    expect(readdirSync(emptyDir)).toEqual([]);
  }, 120_000);
});
