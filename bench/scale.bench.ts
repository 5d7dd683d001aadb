import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { FixedClock } from '@faultline/kernel';
import { DAY_MS, DailyPartitions, Database, dayOf, loadConfig, RetentionSchedule } from '@faultline/platform';
import { EventProcessing } from '@faultline/ingest';
import { createApp } from '../apps/api/src/create-app';
import { environment, percentile, recreateDatabase, round, saveResults, SERVER_URL, sleep } from './bench-support';
import { event } from './ingest.bench';

/**
 * Faultline at ten million events: BENCH_EVENTS events over BENCH_DAYS days in BENCH_PROJECTS
 * projects and BENCH_ISSUES issues (skewed: the busiest issue holds about 0.5 % of the events, the
 * quietest about a hundred), generated through the service's own write path from the queue on:
 * the ingest bench's realistic @sentry/node error is queued as the SDK endpoint queues it, with
 * the time it would have arrived, and the service's event processor (normalise, group, store,
 * keep the rollups) stores it while the service's clock walks through the days. Then, on the
 * service over HTTP: the hot queries' p50 and p99 (random projects and issues), ingest (queue to
 * stored) on that database and on an empty one side by side, and last the retention of the oldest
 * day, with the rows each table deleted one by one (dead tuples).
 *
 * Usage: npm run -s build && node dist/bench/scale.bench.js
 * Env: DATABASE_URL (server for faultline_bench_scale, which is kept), BENCH_PHASE (all, generate,
 *      measure: measure reuses the generated database; queries: only the queries), BENCH_EVENTS (10000000), BENCH_PROJECTS
 *      (20), BENCH_ISSUES (50000), BENCH_DAYS (90), BENCH_REQUESTS (200 per query),
 *      BENCH_INGEST_EVENTS (20000 per side), BENCH_RESULTS_DIR.
 */
const PHASE = process.env.BENCH_PHASE ?? 'all';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20);
const ISSUES = Number(process.env.BENCH_ISSUES ?? 50_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const INGEST_EVENTS = Number(process.env.BENCH_INGEST_EVENTS ?? 20_000);
const DATABASE = 'faultline_bench_scale';
const EMPTY_DATABASE = 'faultline_bench_scale_empty';
const TOKEN = 'bench-token';
const PORT = 9306;
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** Events queued at once, then processed; a simulated stretch of time. */
const CHUNK = 10_000;
const PROCESSORS = 2;

/** A small deterministic generator (mulberry32): the same data set every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface ProjectRow {
  id: string;
  slug: string;
  organization_id: string;
}

async function startService(databaseUrl: string, clock: FixedClock, settings: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'all',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: TOKEN,
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'p00',
    ...settings,
  });
  const app = await createApp(config, { clock });
  await app.listen(config.port, '127.0.0.1');
  return app;
}

async function api(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function projectsOf(database: Database): Promise<ProjectRow[]> {
  return database.query<ProjectRow>(
    `SELECT id::text AS id, slug, organization_id::text AS organization_id FROM projects.projects WHERE slug LIKE 'p__' ORDER BY slug`,
  );
}

/** Every table the service partitions by day (a `<table>_default` beside it), with its partition column. */
async function dailyPartitionedTables(database: Database): Promise<DailyPartitions[]> {
  const rows = await database.query<{ name: string; column_name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name, a.attname AS column_name
     FROM pg_catalog.pg_partitioned_table pt
     JOIN pg_catalog.pg_class c ON c.oid = pt.partrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_catalog.pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
     WHERE pt.partstrat = 'r' AND to_regclass(n.nspname || '.' || c.relname || '_default') IS NOT NULL`,
  );
  return rows.map((row) => new DailyPartitions(database, row.name, row.column_name));
}

/** Queues events [first, first + count), each arriving at `timeOf(index)`, as the SDK endpoint queues them. */
async function enqueue(
  database: Database,
  projects: ProjectRow[],
  first: number,
  count: number,
  timeOf: (index: number) => number,
  issueOf?: (index: number) => number,
) {
  const next = random(first + 1);
  const columns: Array<Array<string | null>> = [[], [], [], [], [], []];
  for (let index = first; index < first + count; index++) {
    // Skewed: P(issue < k) = sqrt(k / ISSUES), so every issue has events and a few hold most.
    const issue = issueOf ? issueOf(index) : Math.min(ISSUES - 1, Math.floor(ISSUES * next() ** 2));
    const project = projects[issue % projects.length];
    const receivedAt = new Date(timeOf(index));
    const week = Math.floor(index / (EVENTS / DAYS) / 7);
    const body = {
      ...event(index),
      timestamp: receivedAt.getTime() / 1000 - 1,
      release: `shop@4.${week}.0`,
      environment: next() < 0.9 ? 'production' : 'staging',
      fingerprint: [`scale-${issue}`],
    };
    columns[0].push(project.id);
    columns[1].push(project.slug);
    columns[2].push(project.organization_id);
    columns[3].push(randomUUID().replace(/-/g, ''));
    columns[4].push(receivedAt.toISOString());
    columns[5].push(JSON.stringify(body));
  }
  await database.execute(
    `INSERT INTO ingest.ingest_queue (project_id, project_slug, organization_id, event_id, category, received_at, available_at, payload)
     SELECT p, s, o, e, 'error', r, r, b FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::text[]) AS q (p, s, o, e, r, b)`,
    columns,
  );
}

/** Queues and processes events [first, first + count) with the service's clock at each chunk's end; answers events per second processed. */
async function ingest(
  app: NestFastifyApplication,
  clock: FixedClock,
  first: number,
  count: number,
  timeOf: (index: number) => number,
  issueOf?: (index: number) => number,
) {
  const database = app.get(Database);
  const processing = app.get(EventProcessing);
  const projects = await projectsOf(database);
  let processingMs = 0;
  let lastReport = performance.now();
  for (let done = 0; done < count; done += CHUNK) {
    const size = Math.min(CHUNK, count - done);
    await enqueue(database, projects, first + done, size, timeOf, issueOf);
    clock.advance(timeOf(first + done + size) - clock.now().getTime());
    const started = performance.now();
    await Promise.all(Array.from({ length: PROCESSORS }, () => processing.drain()));
    processingMs += performance.now() - started;
    if (performance.now() - lastReport > 60_000) {
      lastReport = performance.now();
      console.log(`${new Date().toISOString()} ${first + done + size} events, ${round(((done + size) / processingMs) * 1000, 0)} events/s`);
    }
  }
  return (count / processingMs) * 1000;
}

async function generate(): Promise<void> {
  const databaseUrl = await recreateDatabase(DATABASE);
  const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  const start = new Date(dayOf(end).getTime() - DAYS * DAY_MS);
  const clock = new FixedClock(start);
  const app = await startService(databaseUrl, clock);
  const database = app.get(Database);
  await createProjects(app);
  // Every day's partitions exist before its events arrive, as the partition workers keep them a week ahead.
  for (const table of await dailyPartitionedTables(database)) {
    for (let day = start.getTime(); day <= end.getTime() + DAY_MS; day += DAY_MS) await table.createDay(new Date(day));
  }
  const started = performance.now();
  const spanMs = end.getTime() - start.getTime();
  const rate = await ingest(app, clock, 0, EVENTS, (index) => start.getTime() + (index / EVENTS) * spanMs);
  console.log(`generated ${EVENTS} events in ${round((performance.now() - started) / 60_000)} min, ${round(rate, 0)} events/s processing`);
  await app.close();
}

interface Timing {
  query: string;
  p50: number;
  p99: number;
  max: number;
}

async function timeQuery(name: string, path: () => string): Promise<Timing> {
  for (let n = 0; n < 5; n++) await api(path());
  const times: number[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    const url = path();
    const started = performance.now();
    await api(url);
    times.push(performance.now() - started);
  }
  const timing = { query: name, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(Math.max(...times)) };
  console.log(JSON.stringify(timing));
  return timing;
}

async function queries(database: Database, end: Date): Promise<Timing[]> {
  const projects = await projectsOf(database);
  const issues = await database.query<{ id: string }>(`SELECT id::text AS id FROM issues.issues ORDER BY id`);
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const endSeconds = Math.floor(end.getTime() / 1000);
  const lastWeek = `shop@4.${Math.floor((DAYS - 7) / 7)}.0`;
  const search = encodeURIComponent(`is:unresolved release:${lastWeek} region:eu-west-1`);
  return [
    await timeQuery(
      'issue stream (is:unresolved, 14 d)',
      () => `/api/0/organizations/acme/issues/?project=${pick(projects).id}&query=is%3Aunresolved&statsPeriod=14d`,
    ),
    await timeQuery('issue stream, 3 search terms', () => `/api/0/organizations/acme/issues/?project=${pick(projects).id}&query=${search}&statsPeriod=14d`),
    await timeQuery('issue page', () => `/api/0/organizations/acme/issues/${pick(issues).id}/`),
    await timeQuery('latest event', () => `/api/0/organizations/acme/issues/${pick(issues).id}/events/latest/`),
    await timeQuery('tag values (region)', () => `/api/0/organizations/acme/issues/${pick(issues).id}/tags/region/values/`),
    await timeQuery(
      'event search, count by issue, 24 h',
      () => `/api/0/organizations/acme/events/?project=${pick(projects).id}&field=issue&field=count()&sort=-count&statsPeriod=24h`,
    ),
    await timeQuery(
      'event search, count by issue, 14 d',
      () => `/api/0/organizations/acme/events/?project=${pick(projects).id}&field=issue&field=count()&sort=-count&statsPeriod=14d`,
    ),
    await timeQuery(
      'project stats, 30 d',
      () => `/api/0/projects/acme/${pick(projects).slug}/stats/?stat=received&resolution=1d&since=${endSeconds - 30 * 86_400}&until=${endSeconds}`,
    ),
    await timeQuery(
      'stats_v2, 30 d',
      () => `/api/0/organizations/acme/stats_v2/?field=sum(quantity)&groupBy=outcome&category=error&statsPeriod=30d&interval=1d&project=${pick(projects).id}`,
    ),
  ];
}

/**
 * Ingest (queue to stored) on the generated database and on an empty one, alternating in this one
 * run. The empty one first gets one event of each issue (not counted), so both sides group into
 * issues they have rather than the empty one making them.
 */
async function ingestSideBySide(generated: { events: number; start: Date; end: Date }): Promise<Record<string, number>> {
  const emptyUrl = await recreateDatabase(EMPTY_DATABASE);
  const perEventMs = (generated.end.getTime() - generated.start.getTime()) / generated.events;
  const seedClock = new FixedClock(generated.end);
  const seeded = await startService(emptyUrl, seedClock);
  await createProjects(seeded);
  await ingest(
    seeded,
    seedClock,
    0,
    ISSUES,
    (index) => generated.end.getTime() + index,
    (index) => index,
  );
  await seeded.close();
  const rates: Record<'empty' | 'full', number[]> = { empty: [], full: [] };
  const passes = ['full', 'empty', 'full', 'empty'] as const;
  for (const [pass, side] of passes.entries()) {
    // Arriving after the generated events, at the rate they arrived.
    const first = generated.events + pass * INGEST_EVENTS;
    const timeOf = (index: number) => generated.end.getTime() + ISSUES + (index - generated.events) * perEventMs;
    const clock = new FixedClock(new Date(timeOf(first)));
    const app = await startService(side === 'empty' ? emptyUrl : urlOf(DATABASE), clock);
    rates[side].push(await ingest(app, clock, first, INGEST_EVENTS, timeOf));
    await app.close();
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { emptyPerSecond: round(mean(rates.empty), 0), fullPerSecond: round(mean(rates.full), 0), ratio: round(mean(rates.full) / mean(rates.empty), 2) };
}

async function createProjects(app: NestFastifyApplication): Promise<void> {
  const database = app.get(Database);
  if ((await projectsOf(database)).length >= PROJECTS) return;
  const [team] = (await api('/api/0/organizations/acme/teams/')) as Array<{ slug: string }>;
  for (let n = 1; n < PROJECTS; n++) {
    const slug = `p${String(n).padStart(2, '0')}`;
    await api(`/api/0/teams/acme/${team.slug}/projects/`, { method: 'POST', body: JSON.stringify({ name: slug, slug }) });
  }
}

function urlOf(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows each table has deleted one by one (each a dead tuple until vacuumed), as the statistics count them. */
async function rowsDeleted(client: Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ name: string; deleted: string }>(
    `SELECT schemaname || '.' || relname AS name, n_tup_del::text AS deleted FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.deleted)]));
}

/** The oldest day goes: retention keeping one day less than the whole days stored, on the service's own schedule's tasks. */
async function retention() {
  const client = new Client({ connectionString: urlOf(DATABASE) });
  await client.connect();
  const {
    rows: [span],
  } = await client.query<{ first: Date; last: Date; events: string }>(
    `SELECT min(received_at) AS first, max(received_at) AS last, count(*)::text AS events FROM issues.error_events`,
  );
  const end = new Date(span.last.getTime() + 1);
  const days = Math.round((dayOf(end).getTime() - dayOf(span.first).getTime()) / DAY_MS);
  const app = await startService(urlOf(DATABASE), new FixedClock(end), { ROLE: 'api', EVENT_RETENTION_DAYS: String(days - 1) });
  await sleep(1500);
  const before = await rowsDeleted(client);
  const started = performance.now();
  const pruned = await app.get(RetentionSchedule).pruneAll();
  const seconds = round((performance.now() - started) / 1000, 2);
  await app.close();
  // Statistics reach the shared view within a second of the backend going idle.
  await sleep(2000);
  const deleted = Object.fromEntries(
    [...(await rowsDeleted(client))].map(([name, rows]) => [name, rows - (before.get(name) ?? 0)]).filter(([, rows]) => Number(rows) > 0),
  );
  const eventsGone = Number(span.events) - Number((await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM issues.error_events`)).rows[0].n);
  await client.end();
  return { seconds, eventsGone, pruned, rowsDeletedOneByOne: deleted };
}

async function measure(): Promise<void> {
  const client = new Client({ connectionString: urlOf(DATABASE) });
  await client.connect();
  // What was generated, read off the data: a generation stopped early is measured as far as it went.
  const {
    rows: [row],
  } = await client.query<{ events: string; first: Date; last: Date; issues: string; database_size: string }>(
    `SELECT count(*)::text AS events, min(received_at) AS first, max(received_at) AS last, (SELECT count(*) FROM issues.issues)::text AS issues,
            pg_size_pretty(pg_database_size(current_database())) AS database_size
     FROM issues.error_events`,
  );
  const generated = { events: Number(row.events), start: dayOf(row.first), end: new Date(row.last.getTime() + 1) };
  // Whole days before the one the last event arrived on: retention keeping one less drops the oldest.
  const days = Math.round((dayOf(generated.end).getTime() - generated.start.getTime()) / DAY_MS);
  const sizes = { events: generated.events, issues: Number(row.issues), databaseSize: row.database_size, days };
  await client.query('VACUUM ANALYZE');
  await client.end();

  const clock = new FixedClock(generated.end);
  const app = await startService(urlOf(DATABASE), clock, { ROLE: 'api' });
  const timings = await queries(app.get(Database), generated.end);
  await app.close();
  // `queries` measures the queries alone (the rest adds events and drops the oldest day).
  const ingestRates = PHASE === 'queries' ? undefined : await ingestSideBySide(generated);
  console.log(JSON.stringify(ingestRates));
  const retained = PHASE === 'queries' ? undefined : await retention();
  console.log(JSON.stringify(retained));

  const summary = {
    environment: await environment(urlOf(DATABASE)),
    data: { ...sizes, projects: PROJECTS },
    requests: REQUESTS,
    queries: timings,
    ingest: ingestRates,
    retention: retained,
  };
  console.table(timings);
  saveResults('scale.json', summary);
}

async function main(): Promise<void> {
  if (PHASE === 'all' || PHASE === 'generate') await generate();
  if (PHASE === 'all' || PHASE === 'measure' || PHASE === 'queries') await measure();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
