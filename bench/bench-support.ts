import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, type Pool } from 'pg';
import { loadConfig } from '@faultline/platform';
import { createApp } from '../apps/api/src/create-app';
import type { PacedLoadConfig } from './paced-load';

/**
 * What the ingest and stats benchmarks share: a fresh database per run, autocannon (or the paced
 * generator) in its own process, CPU accounting per process group (this process, autocannon,
 * PostgreSQL) and percentiles.
 */

export const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The repository root, from dist/bench/ (compiled) or bench/ (sources). */
export const ROOT = join(__dirname, '..', __dirname.includes(`${join('dist', 'bench')}`) ? '..' : '');

export async function recreateDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}

export interface AutocannonResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  /** Paced load only: latency over the whole run, its warm-up included. */
  latencyWithWarmup?: { p50: number; p99: number; max: number };
  throughput: { average: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}

/** autocannon in its own process (so it does not share the server's event loop), JSON output. */
export async function autocannon(args: string[]): Promise<AutocannonResult> {
  const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'autocannon'), ['-j', ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as AutocannonResult;
}

/**
 * The paced open-loop generator (paced-load.ts) in its own process, at a steady rate, with the same
 * summary shape as autocannon's.
 */
export async function pacedLoad(config: PacedLoadConfig, directory: string): Promise<AutocannonResult> {
  const file = join(directory, 'paced-load.json');
  writeFileSync(file, JSON.stringify(config));
  const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'paced-load.js'), file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as AutocannonResult;
}

// ---- CPU accounting ---------------------------------------------------------------------------

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a /proc stat line, in seconds (fields 14 and 15; the name may hold spaces). */
function statCpuSeconds(stat: string, withChildren = false): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17.
  const ticks = Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks / CLOCK_TICKS_PER_SECOND;
}

export interface CpuSnapshot {
  at: number;
  self: number;
  /** Children this process has waited for (autocannon, once it has exited). */
  children: number;
  /** Per process: PostgreSQL's backends for `database` and its shared background processes (WAL writer, checkpointer, ...). */
  postgres: Map<string, number>;
  total: number;
}

/** A backend's title is `postgres: <cluster>: <user> <database> <client> <state>`. */
const BACKEND_TITLE = /^postgres: [^:]+: (\S+) (\S+) \S+/;

/**
 * Per-group CPU seconds so far; differences of two snapshots say where a run's CPU went. Backends
 * of other databases (other benchmarks or test suites on the same server) count as neither.
 */
export function cpuSnapshot(database: string): CpuSnapshot {
  const own = readFileSync('/proc/self/stat', 'utf8');
  const self = statCpuSeconds(own);
  const children = statCpuSeconds(own, true) - self;
  const postgres = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const backend = BACKEND_TITLE.exec(title);
      if (backend && backend[2] !== database) continue;
      postgres.set(entry, statCpuSeconds(stat));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const [cpuLine] = readFileSync('/proc/stat', 'utf8').split('\n');
  const busy = cpuLine
    .split(/\s+/)
    .slice(1)
    .map(Number)
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    .filter((_, index) => index !== 3 && index !== 4)
    .reduce((sum, value) => sum + (Number.isFinite(value) ? value : 0), 0);
  return { at: performance.now(), self, children, postgres, total: busy / CLOCK_TICKS_PER_SECOND };
}

/** PostgreSQL CPU between two snapshots: processes that started count whole, those that ended are lost. */
function postgresDelta(before: CpuSnapshot, after: CpuSnapshot): number {
  let seconds = 0;
  for (const [pid, cpu] of after.postgres) seconds += cpu - (before.postgres.get(pid) ?? 0);
  return seconds;
}

/** Cores used by each group between two snapshots (1.0 = one core busy all the time). */
export function coresUsed(before: CpuSnapshot, after: CpuSnapshot) {
  const seconds = (after.at - before.at) / 1000;
  const cores = (value: number) => Number((value / seconds).toFixed(2));
  return {
    server: cores(after.self - before.self),
    autocannon: cores(after.children - before.children),
    postgres: cores(postgresDelta(before, after)),
    machine: cores(after.total - before.total),
    /** Everything else on the machine: other processes, other databases' backends, the kernel. */
    other: cores(after.total - before.total - (after.self - before.self) - (after.children - before.children) - postgresDelta(before, after)),
    machineCores: cpus().length,
  };
}

// ---- where PostgreSQL's backends spend their time ------------------------------------------------

/** The application_name of the benchmarks' own connections, which sampleBackends leaves out. */
export const BENCH_APPLICATION_NAME = 'faultline-bench';

/**
 * Samples the state and wait event of the database's backends (pg_stat_activity) every
 * `intervalMs` until stopped; answers each state's share of the backend samples. `idle in
 * transaction` means a transaction waits for the application, `active` without a wait event means
 * the backend is on CPU, `IO:WALSync` a commit waits for the disk.
 */
export function sampleBackends(pool: Pool, database: string, intervalMs = 100): () => Promise<Record<string, number>> {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query<{ what: string; n: string }>(
        `SELECT state || coalesce(' ' || wait_event_type || ':' || wait_event, '') AS what, count(*) AS n
         FROM pg_stat_activity
         WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2 GROUP BY 1`,
        [database, BENCH_APPLICATION_NAME],
      );
      samples++;
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + Number(row.n));
      await sleep(intervalMs);
    }
  })();
  return async () => {
    running = false;
    await loop;
    // Average number of backends in each state.
    return Object.fromEntries([...counts].sort((x, y) => y[1] - x[1]).map(([what, n]) => [what, round(n / Math.max(1, samples), 2)]));
  };
}

// ---- numbers ----------------------------------------------------------------------------------

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function environment(databaseUrl: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  let commit = 'unknown';
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs', 'migrations'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    commit = dirty ? `${head} + uncommitted changes in apps/libs` : head;
  } catch {
    // Not a git checkout.
  }
  return { date: new Date().toISOString(), commit, node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, postgres: rows[0].server_version };
}

/** Results go to bench/results/ (git-ignored), or to $BENCH_RESULTS_DIR; stdout always has them. */
export function saveResults(name: string, summary: unknown): void {
  const directory = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, name), JSON.stringify(summary, null, 2));
}

/**
 * Proportional set size in MB of this process and the PostgreSQL processes below it (the embedded
 * server and its backends): what the service costs in memory, shared pages split among their
 * sharers so they count once. Other children (autocannon, a worker process) and the backends of
 * the bench's own pools (`benchPids`) are left out.
 */
export function serviceMemoryMb(benchPids: ReadonlySet<number> = new Set()): number {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const below = (pid: number): boolean => {
    for (let parent = parents.get(pid); parent; parent = parents.get(parent)) if (parent === process.pid) return true;
    return false;
  };
  let kilobytes = 0;
  for (const [pid, name] of names) {
    if (pid !== process.pid && !(name === 'postgres' && below(pid) && !benchPids.has(pid))) continue;
    try {
      kilobytes += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return Math.round(kilobytes / 1024);
}

/** The PostgreSQL backends of the bench's own pools, by application_name. */
export async function benchBackendPids(pool: Pool): Promise<Set<number>> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [BENCH_APPLICATION_NAME]);
  return new Set(rows.map((row) => row.pid));
}

/**
 * The service (ROLE=api) on a fresh database `name`, listening on `port`, bootstrapped with
 * `organization`/web and the API token `token`: what the search benchmarks measure through.
 */
export async function startApiOnFreshDatabase(name: string, port: number, token: string, organization: string) {
  const databaseUrl = await recreateDatabase(name);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'api',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: token,
    BOOTSTRAP_ORG: organization,
    BOOTSTRAP_PROJECT: 'web',
  });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');
  return { app, databaseUrl };
}
