import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { runningServerUrl } from '@faultline/embedded-postgres';
import { loadConfig } from '@faultline/platform';
import { createApp } from '../apps/api/src/create-app';
import { decodeBody, DEFAULT_ENVELOPE_LIMITS, parseEnvelope } from '@faultline/ingest';
import {
  autocannon,
  pacedLoad,
  BENCH_APPLICATION_NAME,
  type AutocannonResult,
  coresUsed,
  cpuSnapshot,
  environment,
  percentile,
  recreateDatabase,
  round,
  sampleBackends,
  saveResults,
  serviceMemoryMb,
  benchBackendPids,
  sleep,
} from './bench-support';

/**
 * SDK ingestion: `POST /api/{project_id}/envelope/` through the whole service (ROLE=all, so the
 * EventProcessor runs in this process too) against a bare Fastify route that only decodes and
 * parses the same envelopes. Measures the accept rate and latency of both, the rate at which
 * accepted events are processed into error_events (during the run and until the queue drains),
 * the largest queue backlog, and how long an accepted event takes to become visible.
 *
 * Usage: npm run -s build && node dist/bench/ingest.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_ingest on), BENCH_DATABASE (server; embedded:
 *      no DATABASE_URL, the service runs its embedded PostgreSQL in a temporary DATA_DIR, as `npm
 *      start` does, and the bench reports its process tree's memory), BENCH_CONNECTIONS (50),
 *      BENCH_DURATION (20 s), BENCH_WARMUP (3 s), BENCH_RATE (events/s offered evenly paced; unset: the most
 *      the server answers), BENCH_TOPOLOGY (all: one process; split: an api process and a worker
 *      process, as docs/operations.md "Processes and scaling out" describes), DATABASE_POOL_SIZE (the app's default),
 *      BENCH_ALERT_RULES (0: issue alert rules to create on the project first, a mix of every
 *      condition and filter kind, see alertRule), BENCH_RESULTS_DIR (bench/results:
 *      ingest-<topology>-c<N>[-r<rate>][-rules<R>][-sessions].json), BENCH_ITEMS (errors: each envelope
 *      an error event; sessions: each envelope a release-health `session` update of the SDK, kept at
 *      admission, so "processed" counts the sessions folded into release health).
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Offered load for Faultline in events/s, evenly paced (paced-load.ts); unset: autocannon, as fast as it answers. */
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
/** `all`: one process does everything (npm start); `split`: this process is ROLE=api and a second one ROLE=worker. */
const TOPOLOGY = process.env.BENCH_TOPOLOGY === 'split' ? 'split' : 'all';
/** Issue alert rules on the project during the run (evaluated for every event processed). */
const ALERT_RULES = Number(process.env.BENCH_ALERT_RULES ?? 0);
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT ?? 900) * 1000;
const FAULTLINE_PORT = 9201;
const BARE_PORT = 9202;
const FLOOR_PORT = 9203;
/** `embedded`: the service starts its own PostgreSQL under a temporary DATA_DIR, as `npm start` does. */
const EMBEDDED = process.env.BENCH_DATABASE === 'embedded';
const DATABASE = EMBEDDED ? 'faultline' : 'faultline_bench_ingest';
const MAX_DECOMPRESSED_BYTES = 50 * 1024 * 1024;
/** What each envelope carries: an error event, or a session update (release health). */
const ITEMS = process.env.BENCH_ITEMS === 'sessions' ? 'sessions' : 'errors';

// ---- a realistic @sentry/node error event ---------------------------------------------------

const GROUPS = 20;
const USERS = 500;
const AREAS = [
  'checkout',
  'cart',
  'orders',
  'payments',
  'inventory',
  'search',
  'auth',
  'profile',
  'shipping',
  'invoices',
  'coupons',
  'reviews',
  'catalog',
  'wishlist',
  'notifications',
  'reports',
  'exports',
  'webhooks',
  'billing',
  'sessions',
];
const ERROR_TYPES = ['TypeError', 'RangeError', 'Error', 'ValidationError', 'DatabaseError'];
const VERBS = ['load', 'validate', 'apply', 'persist', 'render'];
const REGIONS = ['eu-west-1', 'us-east-1', 'us-west-2', 'ap-southeast-1'];
const SDK = { name: 'sentry.javascript.node', version: '8.55.0' };

const capitalised = (text: string) => text[0].toUpperCase() + text.slice(1);

function contextLines(fn: string) {
  return {
    pre_context: [`  async ${fn}(input, options = {}) {`, `    const started = Date.now();`],
    context_line: `    const result = await this.repository.${fn}(input.id, options);`,
    post_context: [`    this.metrics.observe('${fn}', Date.now() - started);`],
  };
}

/** Oldest call first, as Sentry sends them: node internals, then the framework, then the app. */
function framesFor(group: number) {
  const area = AREAS[group];
  const frames: Array<Record<string, unknown>> = [
    {
      filename: 'node:internal/process/task_queues',
      module: 'task_queues',
      function: 'process.processTicksAndRejections',
      lineno: 95,
      colno: 5,
      in_app: false,
    },
    { filename: 'node:internal/timers', module: 'timers', function: 'listOnTimeout', lineno: 581, colno: 17, in_app: false },
  ];
  const framework: Array<[string, string]> = [
    ['express/lib/router/index.js', 'next'],
    ['express/lib/router/layer.js', 'Layer.handle [as handle_request]'],
    ['express/lib/router/route.js', 'Route.dispatch'],
    ['express/lib/router/index.js', 'Function.process_params'],
    ['body-parser/lib/types/json.js', 'jsonParser'],
    ['cors/lib/index.js', 'cors'],
    ['helmet/index.cjs', 'helmetMiddleware'],
    ['express-session/index.js', 'session'],
    ['passport/lib/middleware/authenticate.js', 'authenticate'],
    ['express/lib/router/layer.js', 'Layer.handle [as handle_request]'],
    ['express/lib/router/route.js', 'next'],
    ['express/lib/router/index.js', 'handle'],
  ];
  framework.forEach(([file, fn], index) =>
    frames.push({
      filename: `/app/node_modules/${file}`,
      module: file.replace(/\.c?js$/, '').replace(/\//g, ':'),
      function: fn,
      lineno: 100 + index * 17,
      colno: 12,
      in_app: false,
    }),
  );
  const Area = capitalised(area);
  const app: Array<[string, string]> = [
    [`src/routes/${area}.routes.js`, `${area}Router.handle`],
    [`src/${area}/${area}.controller.js`, `${Area}Controller.${VERBS[group % 5]}`],
    [`src/${area}/${area}.service.js`, `${Area}Service.${VERBS[(group + 1) % 5]}${Area}`],
    [`src/${area}/${area}.policy.js`, `${Area}Policy.check`],
    [`src/${area}/${area}.repository.js`, `${Area}Repository.${VERBS[(group + 2) % 5]}`],
    [`src/shared/${VERBS[group % 5]}-helper.js`, `${VERBS[group % 5]}${Area}Record`],
  ];
  app.forEach(([file, fn], index) => {
    const lineno = 40 + index * 11 + group;
    // Source context on the innermost frames, as the ContextLines integration reads it.
    const context = index >= app.length - 2 ? contextLines(fn.split('.').pop() as string) : {};
    frames.push({ filename: `/app/${file}`, module: file.replace(/\.js$/, '').replace(/\//g, ':'), function: fn, lineno, colno: 23, in_app: true, ...context });
  });
  return frames;
}

const FRAMES = Array.from({ length: GROUPS }, (_, group) => framesFor(group));

/** Variant `index`: group index % 20, user index % 500, a varying exception value. */
export function event(index: number, eventId?: string) {
  const group = index % GROUPS;
  const user = index % USERS;
  const area = AREAS[group];
  const orderId = 10_000 + ((index * 7919) % 90_000);
  const traceId = randomUUID().replace(/-/g, '');
  return {
    ...(eventId ? { event_id: eventId } : {}),
    timestamp: Date.now() / 1000,
    platform: 'node',
    level: 'error',
    server_name: `shop-api-${index % 6}`,
    release: 'shop@4.12.0',
    environment: 'production',
    transaction: `POST /api/${area}/:id`,
    exception: {
      values: [
        {
          type: ERROR_TYPES[group % ERROR_TYPES.length],
          value: `${capitalised(area)} ${orderId} failed: amount ${((index * 37) % 900) + 100} exceeds limit for account ${user}`,
          mechanism: { type: 'onunhandledrejection', handled: false },
          stacktrace: { frames: FRAMES[group] },
        },
      ],
    },
    tags: { region: REGIONS[index % REGIONS.length], tenant: `tenant-${user % 40}`, feature: area },
    user: { id: `u-${user}`, email: `user${user}@example.com`, username: `user${user}`, ip_address: `10.0.${user % 256}.${(user * 7) % 256}` },
    request: {
      method: 'POST',
      url: `https://shop.example.com/api/${area}/${orderId}`,
      query_string: 'expand=items&currency=EUR',
      headers: {
        host: 'shop.example.com',
        'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15',
        accept: 'application/json',
        'content-type': 'application/json',
      },
    },
    contexts: {
      trace: { trace_id: traceId, span_id: traceId.slice(0, 16), op: 'http.server', status: 'internal_error' },
      runtime: { name: 'node', version: 'v20.19.2' },
      os: { kernel_version: '6.1.0-21-cloud-amd64', name: 'Linux', version: '6.1.0' },
      device: { arch: 'x64', memory_size: 8_335_249_408, free_memory: 3_123_456_000, processor_count: 2 },
      culture: { locale: 'en-US', timezone: 'UTC' },
      cloud_resource: { 'cloud.provider': 'aws', 'cloud.region': REGIONS[index % REGIONS.length] },
    },
    breadcrumbs: [
      {
        timestamp: Date.now() / 1000 - 2,
        category: 'http',
        type: 'http',
        data: { method: 'GET', url: `https://inventory.internal/items/${orderId}`, status_code: 200 },
      },
      { timestamp: Date.now() / 1000 - 1, category: 'console', level: 'info', message: `${area}: processing ${orderId}` },
    ],
    sdk: {
      ...SDK,
      integrations: [
        'InboundFilters',
        'FunctionToString',
        'LinkedErrors',
        'RequestData',
        'Console',
        'Http',
        'Express',
        'OnUnhandledRejection',
        'ContextLines',
        'Context',
      ],
      packages: [{ name: 'npm:@sentry/node', version: SDK.version }],
    },
  };
}

/**
 * Variant `index` of what @sentry/node sends for a process session: its first update (`init`), a
 * user each of 500; one in 10 crashed, one in 20 errored, the rest exited.
 */
function session(index: number, release: string) {
  const status = index % 10 === 0 ? 'crashed' : index % 20 === 5 ? 'errored' : 'exited';
  const sid = randomUUID().replace(/-/g, '');
  const now = new Date().toISOString();
  return {
    sid,
    init: true,
    started: now,
    timestamp: now,
    status,
    errors: status === 'exited' ? 0 : 1,
    did: `u-${index % USERS}`,
    duration: 12.5,
    attrs: { release, environment: 'production' },
  };
}

export function envelope(index: number, dsn: string, eventId?: string, release = 'shop@4.12.0'): string {
  if (ITEMS === 'sessions') {
    const header = { sent_at: new Date().toISOString(), dsn, sdk: SDK };
    return `${JSON.stringify(header)}\n${JSON.stringify({ type: 'session' })}\n${JSON.stringify(session(index, release))}\n`;
  }
  const header = { ...(eventId ? { event_id: eventId } : {}), sent_at: new Date().toISOString(), dsn, sdk: SDK };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event(index, eventId))}\n`;
}

/**
 * autocannon sends a HAR file's requests in turn on every connection: one entry per variant gives
 * 20 issues and 500 users. The bodies carry no event_id (autocannon cannot vary it), so the server
 * gives each event a fresh one, as it does for an SDK that omits it.
 */
export function harFile(directory: string, name: string, url: string, headers: Record<string, string>, bodies: string[]): string {
  const entries = bodies.map((text) => ({
    request: {
      method: 'POST',
      url,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(headers).map(([header, value]) => ({ name: header, value })),
      postData: { mimeType: headers['content-type'], text },
    },
  }));
  const path = join(directory, name);
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', creator: { name: 'faultline-bench', version: '1' }, entries } }));
  return path;
}

// ---- alert rules ------------------------------------------------------------------------------

/**
 * The n-th rule of a realistic set: every condition kind (new issue, regression, every event,
 * event and user frequency) with level, tag and age filters, all notifying the project's service
 * hooks, so evaluation reads every kind of count the rules need.
 */
export function alertRule(n: number): Record<string, unknown> {
  const notify = [{ id: 'sentry.rules.actions.notify_event.NotifyEventAction' }];
  const conditions = [
    [{ id: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition' }],
    [{ id: 'sentry.rules.conditions.regression_event.RegressionEventCondition' }],
    [{ id: 'sentry.rules.conditions.every_event.EveryEventCondition' }],
    [{ id: 'sentry.rules.conditions.event_frequency.EventFrequencyCondition', value: 100 * (n + 1), interval: ['1m', '5m', '1h', '1d'][n % 4] }],
    [{ id: 'sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition', value: 50, interval: ['5m', '1h'][n % 2] }],
  ][n % 5];
  const filters = [
    [],
    [{ id: 'sentry.rules.filters.level.LevelFilter', match: 'gte', level: '40' }],
    [{ id: 'sentry.rules.filters.tagged_event.TaggedEventFilter', key: 'region', match: 'eq', value: REGIONS[n % REGIONS.length] }],
    [{ id: 'sentry.rules.filters.age_comparison.AgeComparisonFilter', comparison_type: 'newer', value: 1, time: 'day' }],
  ][n % 4];
  return { name: `bench rule ${n + 1}`, actionMatch: 'all', filterMatch: 'all', frequency: 30, conditions, filters, actions: notify };
}

// ---- the measurement ------------------------------------------------------------------------

interface Sample {
  second: number;
  queued: number;
  processed: number;
}

interface Probe {
  acceptMs: number;
  visibleMs: number;
  status: number;
}

async function main(): Promise<void> {
  const dataDir = EMBEDDED ? mkdtempSync(join(tmpdir(), 'faultline-bench-embedded-')) : undefined;
  const config = loadConfig({
    ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: await recreateDatabase(DATABASE) }),
    ROLE: TOPOLOGY === 'split' ? 'api' : 'all',
    PORT: String(FAULTLINE_PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: 'bench-token',
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
    ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
  });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');
  const databaseUrl = config.databaseUrl ?? runningServerUrl(dataDir!)!;
  const idleMemoryMb = serviceMemoryMb();
  for (let n = 0; n < ALERT_RULES; n++) {
    const created = await fetch(`http://127.0.0.1:${FAULTLINE_PORT}/api/0/projects/acme/web/rules/`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' },
      body: JSON.stringify(alertRule(n)),
    });
    if (created.status !== 201) throw new Error(`creating alert rule ${n + 1} answered ${created.status}: ${await created.text()}`);
  }
  const worker =
    TOPOLOGY === 'split'
      ? spawn(process.execPath, [join(__dirname, '..', 'apps', 'api', 'src', 'main.js'), '--role', 'worker'], {
          env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(FAULTLINE_PORT + 10), LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'inherit', 'inherit'],
        })
      : undefined;
  /** CPU seconds of the worker process so far (split topology). */
  const workerCpu = () => {
    if (!worker?.pid) return 0;
    const fields = readFileSync(`/proc/${worker.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };

  /** The same content-type handling as the SDK routes, then decode and parse, then `after` if given. */
  const envelopeRoute = async (port: number, after?: (parsed: ReturnType<typeof parseEnvelope>) => Promise<void>) => {
    const server = Fastify();
    server.removeAllContentTypeParsers();
    server.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 }, (_request, body, done) => done(null, body));
    server.post('/api/:projectId/envelope/', async (request) => {
      const body = await decodeBody(request.body as Buffer, request.headers['content-encoding'], MAX_DECOMPRESSED_BYTES);
      const parsed = parseEnvelope(body, { ...DEFAULT_ENVELOPE_LIMITS, maxEnvelopeBytes: MAX_DECOMPRESSED_BYTES });
      if (after) await after(parsed);
      return { id: parsed.header.event_id ?? null };
    });
    await server.listen({ port, host: '127.0.0.1' });
    return server;
  };

  // The bare route: decode and parse only.
  const bare = await envelopeRoute(BARE_PORT);

  // The durable floor: the bare route's work, then the event item written to PostgreSQL by group
  // commit into a table with a primary key only: no key check, no JSON validation, no processing.
  // What answering only after a durable write costs on this machine, whatever else the service does.
  const floorPool = new Pool({ connectionString: databaseUrl, max: 2, application_name: BENCH_APPLICATION_NAME });
  await floorPool.query(`CREATE TABLE bench_durable_floor (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload text NOT NULL)`);
  const waiting: Array<{ payload: string; done: (error?: unknown) => void }> = [];
  let writing = 0;
  const flush = (): void => {
    while (writing < 2 && waiting.length > 0) {
      const group = waiting.splice(0, 500);
      writing++;
      floorPool
        .query(
          `INSERT INTO bench_durable_floor (payload) VALUES ${group.map((_, index) => `($${index + 1})`).join(', ')}`,
          group.map((entry) => entry.payload),
        )
        .then(
          () => group.forEach((entry) => entry.done()),
          (error: unknown) => group.forEach((entry) => entry.done(error)),
        )
        .finally(() => {
          writing--;
          flush();
        });
    }
  };
  const floor = await envelopeRoute(
    FLOOR_PORT,
    (parsed) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ payload: parsed.items[0].payload.toString('utf8'), done: (error) => (error ? reject(error) : resolve()) });
        flush();
      }),
  );

  // A separate pool for the measurement's own queries (backlog, counts, visibility probes).
  const pool = new Pool({ connectionString: databaseUrl, max: 6, application_name: BENCH_APPLICATION_NAME });
  const [project] = (
    await pool.query<{ id: string; public_key: string }>(
      `SELECT p.id, k.public_key FROM projects.projects p JOIN projects.project_keys k ON k.project_id = p.id WHERE p.slug = 'web' ORDER BY k.id LIMIT 1`,
    )
  ).rows;
  const dsn = `http://${project.public_key}@127.0.0.1:${FAULTLINE_PORT}/${project.id}`;
  const path = `/api/${project.id}/envelope/`;
  const headers = {
    'content-type': 'application/x-sentry-envelope',
    'x-sentry-auth': `Sentry sentry_version=7, sentry_client=${SDK.name}/${SDK.version}, sentry_key=${project.public_key}`,
  };
  const bodies = Array.from({ length: USERS }, (_, index) => envelope(index, dsn));
  const sizes = bodies.map((body) => Buffer.byteLength(body));

  for (const port of [FAULTLINE_PORT, BARE_PORT, FLOOR_PORT]) {
    const check = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body: bodies[0] });
    if (check.status !== 200) throw new Error(`port ${port} answered ${check.status}: ${await check.text()}`);
  }

  const directory = mkdtempSync(join(tmpdir(), 'faultline-ingest-bench-'));
  const targets = {
    bare: { origin: `http://127.0.0.1:${BARE_PORT}`, har: harFile(directory, 'bare.har', `http://127.0.0.1:${BARE_PORT}${path}`, headers, bodies) },
    floor: { origin: `http://127.0.0.1:${FLOOR_PORT}`, har: harFile(directory, 'floor.har', `http://127.0.0.1:${FLOOR_PORT}${path}`, headers, bodies) },
    faultline: {
      origin: `http://127.0.0.1:${FAULTLINE_PORT}`,
      har: harFile(directory, 'faultline.har', `http://127.0.0.1:${FAULTLINE_PORT}${path}`, headers, bodies),
    },
  };
  const load = (target: keyof typeof targets, seconds: number) =>
    RATE && target === 'faultline'
      ? pacedLoad(
          {
            url: `${targets.faultline.origin}${path}`,
            headers,
            bodies,
            ratePerSecond: RATE,
            warmupSeconds: WARMUP,
            durationSeconds: seconds,
            connections: CONNECTIONS,
          },
          directory,
        )
      : autocannon(['-c', String(CONNECTIONS), '-d', String(seconds), '--har', targets[target].har, targets[target].origin]);

  /** Seconds the process that processes events spent evaluating alert rules so far (its /metrics). */
  const alertEvaluationSeconds = async () => {
    const text = await (await fetch(`http://127.0.0.1:${TOPOLOGY === 'split' ? FAULTLINE_PORT + 10 : FAULTLINE_PORT}/metrics`)).text();
    return Number(/^alert_rule_evaluation_seconds_sum (\S+)$/m.exec(text)?.[1] ?? 0);
  };
  const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);
  const queued = () => count(`SELECT count(*) AS n FROM ingest.ingest_queue`);
  // Stored events, as the daily stats rollup counts them in the transaction that stores them:
  // counting error_events itself would read its whole heap every second, on the measured server.
  // Sessions are kept at admission: what is processed is what release health has counted.
  const processed = () =>
    ITEMS === 'sessions'
      ? count(`SELECT coalesce(sum(started), 0) AS n FROM releases.session_counts WHERE release = 'shop@4.12.0'`)
      : count(`SELECT coalesce(sum(count), 0) AS n FROM ingest.project_stats WHERE stat = 'generated' AND resolution = '1d'`);
  async function drain(timeoutMs: number, onSample?: (queue: number) => void): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const queue = await queued();
      onSample?.(queue);
      if (queue === 0) return true;
      await sleep(250);
    }
    return false;
  }

  // Each route is warmed (JIT, connections, pools, the key cache; Faultline's 20 issues exist
  // afterwards, as in steady state) at its own load right before it is measured.
  await load('bare', WARMUP);

  // 1. The bare route, with the worker idle.
  const bareCpuBefore = cpuSnapshot(DATABASE);
  const bareEluBefore = performance.eventLoopUtilization();
  const bareResult = await load('bare', DURATION);
  const bareEventLoopUtilization = round(performance.eventLoopUtilization(bareEluBefore).utilization, 2);
  const bareCpu = coresUsed(bareCpuBefore, cpuSnapshot(DATABASE));
  await load('floor', WARMUP);
  const floorCpuBefore = cpuSnapshot(DATABASE);
  const floorResult = await load('floor', DURATION);
  const floorCpu = coresUsed(floorCpuBefore, cpuSnapshot(DATABASE));
  await floorPool.query(`DROP TABLE bench_durable_floor`);

  // 2. Faultline: load, queue sampling every second, one visibility probe every second. At a given
  // rate, the measured load also starts with WARMUP seconds, counted in every figure but the
  // latency percentiles: after the warm-up's drain, the server starts from idle again.
  await load('faultline', WARMUP);
  if (!(await drain(DRAIN_TIMEOUT_MS))) throw new Error('the warm-up did not drain');
  const baseline = await processed();
  const samples: Sample[] = [];
  const probes: Array<Promise<Probe>> = [];
  const started = performance.now();
  const marks = { faultlineStartUs: Number(process.hrtime.bigint() / 1000n), loadEndUs: 0, drainedUs: 0 };
  let running = true;

  const sampler = (async () => {
    for (let second = 0; running; second++) {
      const next = started + (second + 1) * 1000;
      const [queue, done] = await Promise.all([queued(), processed()]);
      samples.push({ second: round((performance.now() - started) / 1000, 2), queued: queue, processed: done - baseline });
      await sleep(Math.max(0, next - performance.now()));
    }
  })();

  const probe = async (index: number): Promise<Probe> => {
    const eventId = randomUUID().replace(/-/g, '');
    // A session probe names a release of its own, to find it in release health.
    const release = `probe-${eventId}`;
    const sent = performance.now();
    const response = await fetch(`http://127.0.0.1:${FAULTLINE_PORT}${path}`, { method: 'POST', headers, body: envelope(index, dsn, eventId, release) });
    await response.arrayBuffer();
    const accepted = performance.now();
    if (response.status !== 200) return { acceptMs: accepted - sent, visibleMs: NaN, status: response.status };
    while (performance.now() - accepted < DRAIN_TIMEOUT_MS) {
      const { rowCount } =
        ITEMS === 'sessions'
          ? await pool.query(`SELECT 1 FROM releases.session_counts WHERE project_id = $1 AND release = $2`, [project.id, release])
          : await pool.query(`SELECT 1 FROM issues.error_events WHERE project_id = $1 AND event_id = $2`, [project.id, eventId]);
      if (rowCount) return { acceptMs: accepted - sent, visibleMs: performance.now() - accepted, status: 200 };
      // Fine-grained for the first second, then coarser so many waiting probes do not add load.
      await sleep(performance.now() - accepted < 1000 ? 10 : 100);
    }
    return { acceptMs: accepted - sent, visibleMs: Infinity, status: 200 };
  };
  const prober = (async () => {
    for (let second = 0; running; second++) {
      await sleep(Math.max(0, started + second * 1000 + 500 - performance.now()));
      if (running) probes.push(probe(second));
    }
  })();

  const evaluationBefore = await alertEvaluationSeconds();
  const cpuBefore = cpuSnapshot(DATABASE);
  const workerCpuBefore = workerCpu();
  const stopSampling = sampleBackends(pool, DATABASE);
  const eluBefore = performance.eventLoopUtilization();
  let loadMemoryMb = 0;
  const memorySampler = setInterval(() => {
    void benchBackendPids(pool).then(
      (pids) => (loadMemoryMb = Math.max(loadMemoryMb, serviceMemoryMb(pids))),
      () => undefined,
    );
  }, 1000);
  const faultlineResult = await load('faultline', DURATION);
  clearInterval(memorySampler);
  const eventLoopUtilization = round(performance.eventLoopUtilization(eluBefore).utilization, 2);
  const cpuDuringLoad = coresUsed(cpuBefore, cpuSnapshot(DATABASE));
  const workerCores = round((workerCpu() - workerCpuBefore) / ((performance.now() - started) / 1000), 2);
  const backends = await stopSampling();
  running = false;
  const loadSeconds = (performance.now() - started) / 1000;
  marks.loadEndUs = Number(process.hrtime.bigint() / 1000n);
  await Promise.all([sampler, prober]);
  const processedAtLoadEnd = (await processed()) - baseline;
  const backlogAtLoadEnd = await queued();

  let maxBacklog = Math.max(0, ...samples.map((sample) => sample.queued));
  const drained = await drain(DRAIN_TIMEOUT_MS, (queue) => (maxBacklog = Math.max(maxBacklog, queue)));
  const drainedSeconds = (performance.now() - started) / 1000;
  marks.drainedUs = Number(process.hrtime.bigint() / 1000n);
  const cpuUntilDrained = coresUsed(cpuBefore, cpuSnapshot(DATABASE));
  const probeResults = await Promise.all(probes);
  const processedTotal = (await processed()) - baseline;
  const evaluationSeconds = (await alertEvaluationSeconds()) - evaluationBefore;
  rmSync(directory, { recursive: true, force: true });

  const accepted = faultlineResult['2xx'] + probeResults.filter((probe) => probe.status === 200).length;
  const latency = (result: AutocannonResult) => ({ p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max });
  const statusCodes = (result: AutocannonResult) =>
    Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]));
  const visible = probeResults.filter((probe) => probe.status === 200).map((probe) => probe.visibleMs);
  // Per-second processing rate from the samples (the first one is taken as the load starts).
  const perSecond = samples.slice(1).map((sample, index) => (sample.processed - samples[index].processed) / (sample.second - samples[index].second));

  const summary = {
    ...(await environment(databaseUrl)),
    connections: CONNECTIONS,
    items: ITEMS,
    topology: TOPOLOGY,
    database: EMBEDDED ? 'embedded' : 'server',
    /**
     * Proportional set size of this process and the PostgreSQL processes below it (embedded: the
     * server, without the bench's own connections), after start and at most during the load.
     */
    memoryMb: { afterStart: idleMemoryMb, maxDuringLoad: loadMemoryMb },
    alertRules: ALERT_RULES,
    alertFires: await count(`SELECT count(*) AS n FROM alerts.issue_alert_fires`),
    /** Wall time spent in alert evaluation (counts, rule checks, fires) per event processed, waits for PostgreSQL included. */
    alertEvaluationMsPerEvent: round((evaluationSeconds * 1000) / Math.max(1, processedTotal), 4),
    offeredPerSecond: RATE ?? 'as fast as answered',
    durationSeconds: DURATION,
    databasePoolSize: config.databasePoolSize,
    envelope: { variants: bodies.length, groups: GROUPS, users: USERS, bytesMin: Math.min(...sizes), bytesMax: Math.max(...sizes), frames: FRAMES[0].length },
    bare: {
      requestsPerSecond: bareResult.requests.average,
      ...latency(bareResult),
      total: bareResult.requests.total,
      statusCodes: statusCodes(bareResult),
      errors: bareResult.errors,
      cores: bareCpu,
      eventLoopUtilization: bareEventLoopUtilization,
    },
    durableFloor: {
      requestsPerSecond: floorResult.requests.average,
      ...latency(floorResult),
      total: floorResult.requests.total,
      statusCodes: statusCodes(floorResult),
      errors: floorResult.errors,
      cores: floorCpu,
    },
    faultline: {
      acceptedPerSecond: faultlineResult.requests.average,
      ...latency(faultlineResult),
      ...(faultlineResult.latencyWithWarmup ? { latencyWithWarmup: faultlineResult.latencyWithWarmup } : {}),
      total: faultlineResult.requests.total,
      statusCodes: statusCodes(faultlineResult),
      errors: faultlineResult.errors + faultlineResult.timeouts,
      coresDuringLoad: cpuDuringLoad,
      workerProcessCores: TOPOLOGY === 'split' ? workerCores : undefined,
      eventLoopUtilization,
      coresUntilDrained: cpuUntilDrained,
      /** CPU milliseconds per event processed, from the load's start until the queue drained: the cost of ingestion. */
      cpuMsPerEvent: {
        server: round((cpuUntilDrained.server * drainedSeconds * 1000) / Math.max(1, processedTotal), 3),
        postgres: round((cpuUntilDrained.postgres * drainedSeconds * 1000) / Math.max(1, processedTotal), 3),
      },
      /** Average number of the app's PostgreSQL backends in each state during the load. */
      backends,
    },
    ratio: round(faultlineResult.requests.average / bareResult.requests.average, 3),
    /** The most any durable service could reach against the bare route here. */
    floorRatio: round(floorResult.requests.average / bareResult.requests.average, 3),
    processing: {
      accepted,
      processedDuringLoad: processedAtLoadEnd,
      processedPerSecondDuringLoad: round(processedAtLoadEnd / loadSeconds),
      backlogAtLoadEnd,
      maxBacklog,
      drained,
      drainSecondsAfterLoad: round(drainedSeconds - loadSeconds, 2),
      processedTotal,
      endToEndPerSecond: round(processedTotal / drainedSeconds),
      perSecondDuringLoad: { min: round(Math.min(...perSecond)), p50: round(percentile(perSecond, 50)), max: round(Math.max(...perSecond)) },
    },
    visibility: {
      probes: probeResults.length,
      refused: probeResults.filter((probe) => probe.status !== 200).length,
      acceptMsP50: round(
        percentile(
          probeResults.map((probe) => probe.acceptMs),
          50,
        ),
      ),
      p50Ms: round(percentile(visible, 50)),
      p99Ms: round(percentile(visible, 99)),
      maxMs: round(Math.max(...visible)),
      withinOneSecond: visible.filter((ms) => ms <= 1000).length,
    },
    samples,
    marks,
  };
  saveResults(
    `ingest-${TOPOLOGY}${EMBEDDED ? '-embedded' : ''}-c${CONNECTIONS}${RATE ? `-r${RATE}` : ''}${ALERT_RULES ? `-rules${ALERT_RULES}` : ''}${ITEMS === 'sessions' ? '-sessions' : ''}.json`,
    summary,
  );
  console.log(JSON.stringify(summary, null, 2));

  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const target = {
    // At an offered rate: everything offered is accepted and processed as it arrives.
    sustained:
      RATE !== undefined &&
      RATE >= 2000 &&
      summary.faultline.acceptedPerSecond >= 0.98 * RATE &&
      summary.processing.processedPerSecondDuringLoad >= 0.98 * RATE &&
      summary.processing.drainSecondsAfterLoad <= 1,
    ratio: summary.ratio >= 0.25,
    p99: summary.faultline.p99 < 50,
    visible: summary.visibility.p99Ms <= 1000 && summary.visibility.refused === 0,
  };
  console.log(
    [
      `${TOPOLOGY === 'split' ? 'api + worker processes' : 'one process'}, ${ALERT_RULES} alert rules (${summary.alertFires} fires), ${CONNECTIONS} connections, ${RATE ? `${RATE} events/s offered` : 'as fast as answered'}, ${DURATION} s, envelopes of ${summary.envelope.bytesMin}-${summary.envelope.bytesMax} bytes (${GROUPS} issues, ${USERS} users), pool ${config.databasePoolSize}`,
      '| route | accepted req/s | p50 ms | p99 ms | max ms | non-2xx |',
      '|---|---|---|---|---|---|',
      `| bare Fastify: decodeBody + parseEnvelope | ${summary.bare.requestsPerSecond} | ${summary.bare.p50} | ${summary.bare.p99} | ${summary.bare.max} | ${bareResult.non2xx} |`,
      `| durable floor: the same, then a group-committed insert of the item | ${summary.durableFloor.requestsPerSecond} | ${summary.durableFloor.p50} | ${summary.durableFloor.p99} | ${summary.durableFloor.max} | ${floorResult.non2xx} |`,
      `| Faultline (auth, queue insert${TOPOLOGY === 'split' ? '; worker in its own process' : ', worker in-process'}) | ${summary.faultline.acceptedPerSecond} | ${summary.faultline.p50} | ${summary.faultline.p99} | ${summary.faultline.max} | ${faultlineResult.non2xx} |`,
      '',
      '| measure | value | target |',
      '|---|---|---|',
      `| accept ratio Faultline / bare (durable floor / bare) | ${summary.ratio} (${summary.floorRatio}) | ≥ 0.25: ${verdict(target.ratio)} |`,
      `| cores during the durable floor's run: bench process / autocannon / PostgreSQL | ${floorCpu.server} / ${floorCpu.autocannon} / ${floorCpu.postgres} | |`,
      `| p99 accept latency${faultlineResult.latencyWithWarmup ? ` (with the first ${WARMUP} s: ${faultlineResult.latencyWithWarmup.p99} ms, max ${faultlineResult.latencyWithWarmup.max} ms)` : ''} | ${summary.faultline.p99} ms | < 50 ms: ${verdict(target.p99)} |`,
      `| processed during the load | ${summary.processing.processedPerSecondDuringLoad} events/s (per second: min ${summary.processing.perSecondDuringLoad.min}, median ${summary.processing.perSecondDuringLoad.p50}, max ${summary.processing.perSecondDuringLoad.max}) | |`,
      `| processed end to end (accepted ${accepted}, processed ${processedTotal}, drained ${summary.processing.drainSecondsAfterLoad} s after the load) | ${summary.processing.endToEndPerSecond} events/s | 2,000/s offered, accepted and processed: ${RATE ? verdict(target.sustained) : 'needs BENCH_RATE'} |`,
      `| max queue backlog (at load end) | ${maxBacklog} (${backlogAtLoadEnd}) | |`,
      `| visible after accept, ${summary.visibility.probes} probes: p50 / p99 / max | ${summary.visibility.p50Ms} / ${summary.visibility.p99Ms} / ${summary.visibility.maxMs} ms (${summary.visibility.withinOneSecond} within 1 s) | ≤ 1 s: ${verdict(target.visible)} |`,
      `| CPU per event processed (load start until drained): server process / PostgreSQL | ${summary.faultline.cpuMsPerEvent.server} / ${summary.faultline.cpuMsPerEvent.postgres} ms | |`,
      `| alert evaluation per event processed, wall time (an upper bound of its cost: waits for PostgreSQL and for the CPU included) / as a share of the CPU per event | ${summary.alertEvaluationMsPerEvent} ms / ${round((100 * summary.alertEvaluationMsPerEvent) / (summary.faultline.cpuMsPerEvent.server + summary.faultline.cpuMsPerEvent.postgres), 1)} % | the cost target (< 10 % with 20 rules) compares CPU per event with and without rules, see bench/README.md |`,
      `| cores used during the load: server process${TOPOLOGY === 'split' ? ' (api) / worker process' : ''} / autocannon / PostgreSQL / other / machine | ${cpuDuringLoad.server}${TOPOLOGY === 'split' ? ` / ${workerCores}` : ''} / ${cpuDuringLoad.autocannon} / ${cpuDuringLoad.postgres} / ${TOPOLOGY === 'split' ? round(cpuDuringLoad.other - workerCores, 2) : cpuDuringLoad.other} / ${cpuDuringLoad.machine} of ${cpuDuringLoad.machineCores} | |`,
      `| event loop utilisation of the server process during the load (bare route's run) | ${eventLoopUtilization} (${bareEventLoopUtilization}) | |`,
      `| app's PostgreSQL backends during the load (average count by state) | ${Object.entries(backends)
        .map(([what, n]) => `${what} ${n}`)
        .join(', ')} | |`,
      `| memory (Pss) of the bench process${EMBEDDED ? ' and the embedded PostgreSQL' : ''}: after start / most during the load | ${idleMemoryMb} / ${loadMemoryMb} MB | |`,
    ].join('\n'),
  );

  await bare.close();
  await floor.close();
  await floorPool.end();
  await pool.end();
  await app.close();
  if (worker) {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
