import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { Client } from 'pg';
import { type PostgresBinaries, postgresBinaries } from './postgres-binaries';

const USER = 'faultline';
const DATABASE = 'faultline';
/** The unprivileged account the server runs as when Faultline runs as root (PostgreSQL refuses root). */
const SERVER_ACCOUNT = 'postgres';
/**
 * How the server account names a directory of its own (the cluster) when it runs as another user
 * than Faultline: its working directory, which the spawn enters before it gives up root. It then
 * reaches the cluster without passing through DATA_DIR's ancestors, which may be private (a clone
 * in /root): nothing outside the cluster needs to be opened to it. Linux only.
 */
const OWN_DIRECTORY = '/proc/self/cwd';
/** A Unix socket path longer than this does not fit sockaddr_un on every platform; TCP on loopback then. */
const MAX_SOCKET_PATH = 100;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
const STOP_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 120_000;

/** Where the embedded database keeps its parts inside DATA_DIR. */
export const embeddedPaths = (dataDir: string) => ({
  cluster: join(dataDir, 'postgres'),
  password: join(dataDir, 'postgres.password'),
  log: join(dataDir, 'postgres.log'),
});

export interface EmbeddedPostgresOptions {
  /** Connections the server accepts (the pool, the CLI and a few spare). */
  readonly maxConnections: number;
  /** `socket` (default where the platform and path allow): a Unix socket in the cluster directory, no TCP. */
  readonly listen?: 'socket' | 'tcp';
  /**
   * Run the server in its own process group (default), so that a terminal's Ctrl-C reaches only the
   * service, which stops the server after draining. A test run instead lets it end with the run.
   */
  readonly ownProcessGroup?: boolean;
  readonly log?: (message: string) => void;
}

interface Account {
  readonly uid: number;
  readonly gid: number;
}

interface Listen {
  readonly port: number;
  /** Unix socket directory; undefined listens on 127.0.0.1. */
  readonly socketDir?: string;
}

/**
 * A PostgreSQL server under DATA_DIR, run from the binaries of the per-platform npm package as a
 * child process of this one: initialised on first start, restarted if it dies, stopped on stop().
 * It runs in its own process group, so a Ctrl-C meant for the service does not stop it before the
 * service has drained; a service killed outright leaves it running, and the next start stops it
 * (a fast shutdown: every committed transaction is on disk) before starting its own.
 */
export class EmbeddedPostgres {
  private child?: ChildProcess;
  private stopping = false;

  private constructor(
    private readonly dataDir: string,
    private readonly binaries: PostgresBinaries,
    private readonly account: Account | undefined,
    private readonly listen: Listen,
    private readonly options: EmbeddedPostgresOptions,
  ) {}

  static async start(dataDirPath: string, options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const dataDir = absolutePath(dataDirPath);
    mkdirSync(dataDir, { recursive: true });
    const account = serverAccount();
    const binaries = postgresBinaries(account !== undefined);
    await initialise(dataDir, binaries, account);
    const problem = clusterVersionProblem(dataDir, readFileSync(join(embeddedPaths(dataDir).cluster, 'PG_VERSION'), 'utf8').trim(), binaries.major);
    if (problem) throw new Error(problem);
    await stopRunningServer(dataDir, options.log);
    const server = new EmbeddedPostgres(dataDir, binaries, account, await chooseListen(dataDir, options.listen), options);
    await server.launch();
    try {
      await server.createDatabase();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** The connection string of the application's database (the password included). */
  get url(): string {
    return connectionUrl(this.dataDir, this.listen, DATABASE);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // SIGINT is PostgreSQL's fast shutdown: it ends sessions, writes a checkpoint and exits.
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private async launch(): Promise<void> {
    const paths = embeddedPaths(this.dataDir);
    rotateLog(paths.log);
    const log = openSync(paths.log, 'a', 0o600);
    const cluster = asSeenBy(this.account, paths.cluster);
    let child: ChildProcess;
    try {
      child = spawn(this.binaries.postgres, ['-D', cluster.path, ...serverFlags(this.listen, this.options.maxConnections, cluster.path)], {
        detached: this.options.ownProcessGroup ?? true,
        stdio: ['ignore', log, log],
        windowsHide: true,
        env: { ...process.env, LC_MESSAGES: 'C' },
        cwd: cluster.cwd,
        ...(this.account ?? {}),
      });
    } finally {
      closeSync(log);
    }
    child.unref();
    this.child = child;
    const ended = new Promise<never>((_resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`the embedded PostgreSQL server exited during start-up (${signal ?? `code ${code}`}):\n${logTail(paths.log)}`)),
      );
    });
    // A start that fails ends the wait for readiness too: nothing of this attempt is left to fail later.
    await Promise.race([ended, waitUntilReady(paths.cluster, child, ended)]);
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      this.options.log?.(`the embedded PostgreSQL server exited (${signal ?? `code ${code}`}); restarting it`);
      this.restartSoon();
    });
  }

  /** Starts the server again after it died, every second until it runs or stop() is called. */
  private restartSoon(): void {
    setTimeout(() => {
      if (this.stopping) return;
      this.launch().catch((error: unknown) => {
        this.options.log?.(`restarting the embedded PostgreSQL server failed: ${String(error)}`);
        this.restartSoon();
      });
    }, 1000).unref();
  }

  private async createDatabase(): Promise<void> {
    const client = new Client({ connectionString: connectionUrl(this.dataDir, this.listen, 'postgres') });
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (!exists.rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  }
}

/**
 * Why the binaries cannot open the cluster, or undefined when they can: a PostgreSQL server opens
 * only clusters of its own major version. Moving to another is a backup taken with the Faultline
 * that runs the cluster's version, restored with the one that runs the new version.
 */
export function clusterVersionProblem(dataDir: string, clusterVersion: string, binariesMajor: number): string | undefined {
  if (clusterVersion === String(binariesMajor)) return undefined;
  const cluster = embeddedPaths(dataDir).cluster;
  if (Number.parseFloat(clusterVersion) < binariesMajor) {
    return (
      `The embedded database in ${cluster} was created by PostgreSQL ${clusterVersion}; this Faultline runs PostgreSQL ${binariesMajor}, ` +
      `which cannot open it. Move the data over: with the Faultline version that ran it, \`npm run cli -- backup FILE\`; then with this ` +
      `one, \`DATA_DIR=<new empty directory> npm run cli -- restore FILE\`, and start with that DATA_DIR (see docs/backup-and-restore.md).`
    );
  }
  return (
    `The embedded database in ${cluster} was created by PostgreSQL ${clusterVersion}, newer than the PostgreSQL ${binariesMajor} this ` +
    `Faultline runs, which cannot open it: run the newer Faultline that created it (see docs/backup-and-restore.md).`
  );
}

/**
 * Small-footprint settings for one service's database. Durability is PostgreSQL's default: fsync,
 * synchronous commit and full-page writes stay on. No replication (so WAL is minimal), no parallel
 * query workers, synchronous I/O (no I/O worker processes), no JIT.
 */
function serverFlags(listen: Listen, maxConnections: number, cluster: string): string[] {
  const settings: Record<string, string | number> = {
    listen_addresses: listen.socketDir ? '' : '127.0.0.1',
    port: listen.port,
    // The socket is in the cluster directory, named as the server sees it.
    unix_socket_directories: listen.socketDir ? cluster : '',
    max_connections: maxConnections,
    shared_buffers: '32MB',
    // Events are several KB each: WAL buffers of 1/32 of shared_buffers (1 MB) would be written out mid-transaction.
    wal_buffers: '4MB',
    work_mem: '4MB',
    maintenance_work_mem: '32MB',
    wal_level: 'minimal',
    max_wal_senders: 0,
    max_wal_size: '256MB',
    min_wal_size: '32MB',
    max_worker_processes: 4,
    max_parallel_workers: 0,
    max_parallel_workers_per_gather: 0,
    max_parallel_maintenance_workers: 0,
    max_logical_replication_workers: 0,
    autovacuum_worker_slots: 2,
    autovacuum_max_workers: 2,
    io_method: 'sync',
    jit: 'off',
    huge_pages: 'off',
    fsync: 'on',
    synchronous_commit: 'on',
    full_page_writes: 'on',
  };
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

function serverAccount(): Account | undefined {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return undefined;
  const existing = accountOf(SERVER_ACCOUNT);
  if (existing) return existing;
  const create: Array<[string, string[]]> = [
    ['useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_ACCOUNT]],
    ['adduser', ['-S', '-D', '-H', SERVER_ACCOUNT]],
  ];
  for (const [command, args] of create) {
    try {
      execFileSync(command, args, { stdio: 'ignore' });
      const created = accountOf(SERVER_ACCOUNT);
      if (created) return created;
    } catch {
      // try the next tool
    }
  }
  throw new Error(
    `PostgreSQL does not run as root, and creating the system user "${SERVER_ACCOUNT}" for it failed. ` +
      `Create that user, run Faultline as an unprivileged user, or set DATABASE_URL.`,
  );
}

/** The path by which the server's processes reach `dir`, and the working directory they start in (see OWN_DIRECTORY). */
function asSeenBy(account: Account | undefined, dir: string): { path: string; cwd?: string } {
  return account && process.platform === 'linux' ? { path: OWN_DIRECTORY, cwd: dir } : { path: dir };
}

function accountOf(name: string): Account | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** initdb into a staging directory, renamed into place when complete: a cluster is there whole or not at all. */
async function initialise(dataDir: string, binaries: PostgresBinaries, account: Account | undefined): Promise<void> {
  const paths = embeddedPaths(dataDir);
  if (existsSync(join(paths.cluster, 'PG_VERSION'))) return;
  const staging = `${paths.cluster}.init`;
  rmSync(staging, { recursive: true, force: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(paths.password, password, { mode: 0o600 });
  // initdb reads the superuser's password from a file the server account can read.
  const scratch = mkdtempSync(join(tmpdir(), 'faultline-initdb-'));
  const passwordFile = join(scratch, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  mkdirSync(staging, { mode: 0o700 });
  if (account) for (const path of [scratch, passwordFile, staging]) chownSync(path, account.uid, account.gid);
  const target = asSeenBy(account, staging);
  try {
    await run(
      binaries.initdb,
      [
        '-D',
        target.path,
        '-U',
        USER,
        '--auth=scram-sha-256',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
        '--no-instructions',
      ],
      target.cwd,
      account,
    );
  } catch (error) {
    const hint = account ? ` (it runs as the system user "${SERVER_ACCOUNT}", which must be able to reach ${dataDir})` : '';
    throw new Error(`Initialising the embedded PostgreSQL cluster failed${hint}: ${(error as Error).message}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  renameSync(staging, paths.cluster);
}

function run(command: string, args: string[], cwd: string | undefined, account: Account | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: true,
      env: { ...process.env, LC_MESSAGES: 'C' },
      cwd,
      ...(account ?? {}),
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(stderr.trim() || `exit code ${code}`))));
  });
}

interface PostmasterStatus {
  readonly pid: number;
  readonly port: number;
  readonly socketDir: string;
  readonly listenAddress: string;
  readonly status: string;
}

/** postmaster.pid, which PostgreSQL keeps in the cluster directory while it runs (lines documented in pidfile.h). */
function postmasterStatus(cluster: string): PostmasterStatus | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  return { pid: Number(lines[0]), port: Number(lines[3]), socketDir: lines[4] ?? '', listenAddress: lines[5] ?? '', status: (lines[7] ?? '').trim() };
}

/**
 * Whether `pid` is the PostgreSQL server of `cluster`: true, false, or undefined where this
 * platform cannot tell. postmaster.pid outlives a server that did not stop cleanly, and its pid may
 * since have gone to another process, even another PostgreSQL: only a confirmed server is signalled.
 * Linux: a live postgres process whose working directory (a server enters its data directory) is
 * the cluster; a process whose directory we may not read is not ours (ours runs as this user, or
 * as the server account under root). Other Unix: `ps` shows it started with `-D <cluster>`.
 */
function servesCluster(pid: number, cluster: string): boolean | undefined {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform === 'linux') {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return /^Name:\s*postgres$/m.test(status) && !/^State:\s*Z/m.test(status) && readlinkSync(`/proc/${pid}/cwd`) === realpathSync(cluster);
    } catch {
      return false;
    }
  }
  if (process.platform === 'win32') return undefined;
  try {
    const command = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return /(^|\/)postgres /.test(command) && command.includes(` -D ${cluster} `);
  } catch {
    return undefined;
  }
}

/** The running server's connection string, from postmaster.pid; undefined unless a server of this DATA_DIR is ready. */
export function runningServerUrl(dataDirPath: string): string | undefined {
  const dataDir = absolutePath(dataDirPath);
  const cluster = embeddedPaths(dataDir).cluster;
  const status = postmasterStatus(cluster);
  if (!status || status.status !== 'ready' || !servesCluster(status.pid, cluster)) return undefined;
  // The socket directory is the cluster, which postmaster.pid may name as the server sees it (OWN_DIRECTORY).
  return connectionUrl(dataDir, { port: status.port, socketDir: status.socketDir ? cluster : undefined }, DATABASE);
}

/**
 * A server still running on this cluster belongs to a Faultline process that was killed (the
 * caller holds DATA_DIR's lock): stop it, fast, which keeps every committed transaction. A
 * postmaster.pid naming any other process is stale: removed, nothing is signalled.
 */
async function stopRunningServer(dataDir: string, log?: (message: string) => void): Promise<void> {
  const cluster = embeddedPaths(dataDir).cluster;
  const pidFile = join(cluster, 'postmaster.pid');
  const status = postmasterStatus(cluster);
  if (!status) return;
  const serves = servesCluster(status.pid, cluster);
  if (serves === undefined) {
    throw new Error(
      `${pidFile} names process ${status.pid}, which runs, and Faultline cannot tell on ${process.platform} whether it is this ` +
        `DATA_DIR's PostgreSQL server: stop that process if it is, or delete ${pidFile} if it is not, then start again.`,
    );
  }
  if (!serves) {
    unlinkSync(pidFile);
    return;
  }
  log?.(`stopping the embedded PostgreSQL server (pid ${status.pid}) left running by a previous Faultline process`);
  process.kill(status.pid, 'SIGINT');
  const deadline = performance.now() + STOP_TIMEOUT_MS;
  while (existsSync(pidFile) && servesCluster(status.pid, cluster)) {
    if (performance.now() > deadline) process.kill(status.pid, 'SIGQUIT');
    await sleep(50);
  }
}

/** Until `child` is ready; rejects with `ended` when the server exits first, or after READY_TIMEOUT_MS. */
async function waitUntilReady(cluster: string, child: ChildProcess, ended: Promise<never>): Promise<void> {
  let exited = false;
  ended.catch(() => (exited = true));
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const status = postmasterStatus(cluster);
    if (status && status.pid === child.pid && status.status === 'ready') return;
    if (exited) return ended;
    if (performance.now() > deadline) {
      child.kill('SIGQUIT');
      throw new Error('the embedded PostgreSQL server did not become ready in time');
    }
    await sleep(25);
  }
}

async function chooseListen(dataDir: string, mode: EmbeddedPostgresOptions['listen']): Promise<Listen> {
  const socketDir = embeddedPaths(dataDir).cluster;
  if (mode !== 'tcp' && process.platform !== 'win32' && join(socketDir, '.s.PGSQL.5432.lock').length <= MAX_SOCKET_PATH) {
    return { port: 5432, socketDir };
  }
  return { port: await freePort() };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function connectionUrl(dataDir: string, listen: Listen, database: string): string {
  const password = encodeURIComponent(readFileSync(embeddedPaths(dataDir).password, 'utf8').trim());
  return listen.socketDir
    ? `postgresql://${USER}:${password}@localhost:${listen.port}/${database}?host=${encodeURIComponent(listen.socketDir)}`
    : `postgresql://${USER}:${password}@127.0.0.1:${listen.port}/${database}`;
}

function rotateLog(path: string): void {
  try {
    if (statSync(path).size > LOG_ROTATE_BYTES) renameSync(path, `${path}.1`);
  } catch {
    // no log yet
  }
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
