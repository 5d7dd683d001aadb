import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabaseUrl, dropTestDatabase } from '../support/test-database';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build', `start-banner-${process.pid}`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

/**
 * The compiled service's first minutes in a terminal: a plain-text banner says where to go, who to
 * sign in as (with the password generated at first start) and the DSN; requests log nothing at the
 * default level; LOG_FORMAT chooses JSON lines or readable ones.
 */
describe('start banner and log format', () => {
  const started: Array<{ child: ChildProcess; dataDir: string; databaseUrl?: string }> = [];

  beforeAll(() => {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'swc'), ['apps', 'libs', 'migrations', '-d', BUILD, '--quiet', '--ignore', 'apps/web/client/**'], {
      cwd: ROOT,
    });
  });

  afterAll(async () => {
    for (const { child, dataDir, databaseUrl } of started) {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await dropTestDatabase(databaseUrl);
    }
    rmSync(BUILD, { recursive: true, force: true });
  });

  /** Starts the service on a fresh database, waits for its banner, sends a few requests; answers its output. */
  async function run(env: Record<string, string>): Promise<{ lines: string[]; text: string; port: number }> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'faultline-banner-'));
    const databaseUrl = await createTestDatabaseUrl();
    const { DATABASE_URL: _server, LOG_FORMAT: _format, ...inherited } = process.env;
    const child = spawn(process.execPath, [join(BUILD, 'apps', 'api', 'src', 'main.js')], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        BOOTSTRAP_EMAIL: 'me@example.test',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push({ child, dataDir, databaseUrl });
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!/SDK setup: .*\n/.test(text)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no banner; output:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let request = 0; request < 5; request++) await fetch(`http://127.0.0.1:${port}/health/live`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    return { lines: text.split('\n').filter((line) => line.trim() !== ''), text, port };
  }

  it('LOG_FORMAT=json: JSON lines, no request lines at info, and a plain banner with the URL, sign-in, generated password and DSN', async () => {
    const { lines, text, port } = await run({ LOG_FORMAT: 'json' });
    expect(text).toContain(`Faultline is running. Open http://127.0.0.1:${port}/ and sign in as me@example.test`);
    expect(text).toMatch(/Password: \S{12,} {3}\(generated now and shown once: store it\)/);
    expect(text).toMatch(new RegExp(`DSN of faultline/default: http://[0-9a-f]{32}@127\\.0\\.0\\.1:${port}/\\d+`));
    const banner = lines.filter((line) => line.startsWith('  '));
    expect(banner.length).toBeGreaterThanOrEqual(4);
    expect(lines.filter((line) => !line.startsWith('  ')).every(isJson)).toBe(true);
    expect(text).not.toMatch(/request completed|incoming request/);
    // The DSN is in the banner, not in a log line.
    expect(lines.filter(isJson).some((line) => /[0-9a-f]{32}@/.test(line))).toBe(false);
  });

  it('LOG_FORMAT=pretty: readable lines, one per request at debug', async () => {
    const { lines, text } = await run({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    expect(text).toContain('Faultline is running. Open');
    const logLines = lines.filter((line) => !line.startsWith('  '));
    expect(logLines.some(isJson)).toBe(false);
    expect(logLines.filter((line) => line.includes('request completed')).length).toBe(5);
  });
});
