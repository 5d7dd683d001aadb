import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from '../../libs/embedded-postgres/src';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build', `npm-start-${process.pid}`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a Faultline process holds DATA_DIR (taking the lock to see, and giving it back). */
async function isHeld(dataDir: string): Promise<boolean> {
  const lock = await lockDataDir(dataDir);
  if ('release' in lock) await lock.release();
  return 'heldBy' in lock;
}

const answers = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

/**
 * The compiled service as `npm start` runs it: npm starts a shell that starts node, and a SIGTERM
 * to npm ends npm and the shell only. The service must not outlive them.
 */
describe('npm start', () => {
  let dataDir: string;
  let shell: ChildProcess | undefined;
  let service: number | undefined;

  beforeAll(() => {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'swc'), ['apps', 'libs', 'migrations', '-d', BUILD, '--quiet', '--ignore', 'apps/web/client/**'], {
      cwd: ROOT,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'faultline-npm-start-'));
  });

  afterAll(() => {
    shell?.kill('SIGKILL');
    try {
      if (service) process.kill(service, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(BUILD, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops, releasing its data directory and its database server, when the shell npm ran it in is terminated', async () => {
    const port = await freePort();
    const { DATABASE_URL: _server, ...env } = process.env;
    // The shell waits for node as npm's does, and tells its pid so the test can clean up.
    shell = spawn('sh', ['-c', `"${process.execPath}" "${join(BUILD, 'apps', 'api', 'src', 'main.js')}" & echo $!; wait`], {
      cwd: ROOT,
      env: { ...env, npm_lifecycle_event: 'start', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', BOOTSTRAP_TOKEN: 't' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    shell.stdout?.once('data', (pid: Buffer) => (service = Number(String(pid).trim())));
    const health = `http://127.0.0.1:${port}/health/live`;
    await until(() => answers(health), 50_000);
    expect(await isHeld(dataDir)).toBe(true);

    shell.kill('SIGTERM');
    await until(async () => !(await answers(health)) && !(await isHeld(dataDir)), 10_000);
    // It stopped its embedded PostgreSQL server too.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
