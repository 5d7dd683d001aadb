import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Compiles the service and the CLI as `npm run build` does (without the web interface) into `dir`. */
export function buildService(dir: string): void {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'swc'), ['apps', 'libs', 'modules', 'migrations', '-d', dir, '--quiet', '--ignore', 'apps/web/client/**'], {
    cwd: ROOT,
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; output: string }>;
  /** What the process has printed so far. */
  readonly output: () => string;
}

/** A process of the compiled service (`main.js`) or CLI (`cli.js`) in `build`, without DATABASE_URL: the embedded database of DATA_DIR. */
export function runCompiled(build: string, script: string, args: string[], env: Record<string, string>): Run {
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(build, 'apps', 'api', 'src', script), ...args], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve({ code, output }))), output: () => output };
}

/** Starts the compiled service on DATA_DIR `dataDir`, bootstrapped with organization acme, project web and API token `token`; resolves once it is ready. */
export async function startCompiledService(build: string, dataDir: string, port: number, token: string): Promise<Run> {
  const run = runCompiled(build, 'main.js', [], {
    DATA_DIR: dataDir,
    PORT: String(port),
    BOOTSTRAP_TOKEN: token,
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
  });
  let exit: { code: number | null; output: string } | undefined;
  void run.exited.then((result) => (exit = result));
  try {
    await until(async () => {
      if (exit) throw new Error(`the service exited (${exit.code}):\n${exit.output}`);
      return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.ok === true;
    }, 50_000);
  } catch (error) {
    run.child.kill('SIGKILL');
    throw error;
  }
  return run;
}
