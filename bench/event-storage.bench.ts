import 'reflect-metadata';
import { FixedClock, newHexId, PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import { createDataSource, Database, runMigrations } from '@faultline/platform';
import { dataScrubber, normalizeEvent, prepareEvent } from '../libs/ingest/src/domain';
import { EventPartitionsRepository } from '../libs/issues/src/infrastructure/event-partitions.repository';
import { type ErrorEventRow, IssueReadModel } from '../libs/issues/src/infrastructure/issue-read-model.repository';
import { IssueTopFramesRepository } from '../libs/issues/src/infrastructure/issue-top-frames.repository';
import { MIGRATIONS } from '../migrations';
import { dropDatabase, environment, recreateDatabase, round, saveResults } from './bench-support';
import { event } from './ingest.bench';

/**
 * Bytes on disk per stored event, and which days the hot reads of stored events touch.
 *
 * The ingest benchmark's realistic @sentry/node error (5.7–6.0 KB as sent) goes through the
 * processor's pure steps (normalise, prepare with a new project's scrubbing) into BENCH_SAMPLES
 * distinct stored payloads; BENCH_EVENTS rows are loaded from them with generate_series over
 * BENCH_DAYS daily partitions (PostgreSQL compresses each value alone, so repeating samples does
 * not flatter the numbers). Reported: the partitioned table with its indexes and the event ids'
 * claims per row, the same rows in the table's shape before partitioning, and the payload alone
 * per compression method, whole and without the fields its columns already hold. Then each hot
 * read's statement, as the repositories write it, under EXPLAIN ANALYZE: the partitions it read.
 *
 * Usage: npm run -s build && node dist/bench/event-storage.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_event_storage on), BENCH_EVENTS (200000),
 *      BENCH_SAMPLES (2000), BENCH_DAYS (7), BENCH_KEEP (1: keep the database), BENCH_RESULTS_DIR.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const ISSUES = 200;
const DATABASE = 'faultline_bench_event_storage';
const DAY_MS = 86_400_000;
/** The last loaded day ends here; the read model's clock stands at its end. */
const END = new Date('2026-11-20T00:00:00.000Z');
const DERIVABLE = ['eventId', 'timestamp', 'receivedAt'];

interface Sizes {
  rows: number;
  heap: number;
  toast: number;
  indexes: number;
  total: number;
}

function samples(): Array<{ data: string; lean: string; tags: string[]; unhandled: boolean; sent: number }> {
  const scrubber = dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS);
  return Array.from({ length: SAMPLES }, (_, index) => {
    const sent = JSON.stringify(event(index));
    const prepared = prepareEvent(normalizeEvent(JSON.parse(sent), { receivedAt: END, newEventId: newHexId() }), scrubber);
    const lean = Object.fromEntries(Object.entries(prepared.event).filter(([key]) => !DERIVABLE.includes(key)));
    return {
      data: JSON.stringify(prepared.event),
      lean: JSON.stringify(lean),
      tags: [...new Set(prepared.issueTags.map(([key, value]) => `${key}=${value}`))],
      unhandled: prepared.unhandled,
      sent: Buffer.byteLength(sent),
    };
  });
}

async function sizes(database: Database, tables: string): Promise<Sizes> {
  const [row] = await database.query<Sizes>(
    `SELECT sum(pg_relation_size(t.relid))::float8 AS heap, sum(pg_table_size(t.relid) - pg_relation_size(t.relid))::float8 AS toast,
            sum(pg_indexes_size(t.relid))::float8 AS indexes, sum(pg_total_relation_size(t.relid))::float8 AS total, 0 AS rows
     FROM (${tables}) t`,
  );
  return row;
}

const perRow = (size: Sizes, rows: number) => ({
  heap: round(size.heap / rows, 0),
  toast: round(size.toast / rows, 0),
  indexes: round(size.indexes / rows, 0),
  total: round(size.total / rows, 0),
});

/** The partitions of error_events a plan read (scanned at least once), and how many it was planned over. */
function partitionsRead(plan: Record<string, unknown>): { read: string[]; planned: number; removed: number } {
  const read = new Set<string>();
  const planned = new Set<string>();
  let removed = 0;
  const walk = (node: Record<string, unknown>) => {
    const relation = node['Relation Name'];
    if (typeof relation === 'string' && relation.startsWith('error_events_')) {
      planned.add(relation);
      if (Number(node['Actual Loops'] ?? 0) > 0) read.add(relation);
    }
    removed += Number(node['Subplans Removed'] ?? 0);
    for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
  };
  walk(plan);
  return { read: [...read].sort(), planned: planned.size, removed };
}

async function main(): Promise<void> {
  const url = await recreateDatabase(DATABASE);
  const dataSource = await createDataSource({ databaseUrl: url, migrations: MIGRATIONS, poolSize: 4 });
  await dataSource.initialize();
  await runMigrations(dataSource);
  const database = new Database(dataSource);

  const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
  const [{ id: projectId }] = await database.query<{ id: string }>(
    `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
    [organizationId],
  );
  await database.execute(
    `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen)
     SELECT $1, 'fp' || g, 'WEB-' || g, 'TypeError: ' || g, 'app', 'error', 'node', $2, $2 FROM generate_series(1, $3::integer) g`,
    [projectId, END, ISSUES + 1],
  );
  const [{ first }] = await database.query<{ first: string }>(`SELECT min(id)::text AS first FROM issues.issues`);
  const partitions = new EventPartitionsRepository(database);
  const start = new Date(END.getTime() - DAYS * DAY_MS);
  for (let day = 0; day < DAYS; day++) {
    for (const table of [partitions.events, partitions.claims]) await table.createDay(new Date(start.getTime() + day * DAY_MS));
  }

  const stored = samples();
  await database.execute(`CREATE TABLE public.bench_samples (n integer PRIMARY KEY, data json, lean json, tags text[], unhandled boolean)`);
  await database.execute(
    `INSERT INTO public.bench_samples SELECT s.n - 1, s.data, s.lean, ARRAY(SELECT json_array_elements_text(s.tags)), s.unhandled
     FROM unnest($1::json[], $2::json[], $3::json[], $4::boolean[]) WITH ORDINALITY AS s (data, lean, tags, unhandled, n)`,
    [stored.map((s) => s.data), stored.map((s) => s.lean), stored.map((s) => JSON.stringify(s.tags)), stored.map((s) => s.unhandled)],
  );

  // Issue ISSUES + 1 is new: its events arrived in the last hour only; the others' spread evenly over every day.
  const loadStarted = performance.now();
  await database.execute(
    `WITH events AS (
       SELECT g, nextval(pg_get_serial_sequence('issues.error_events', 'id')) AS id, md5(g::text) AS event_id, $2::timestamptz - make_interval(secs => ((g - 1)::double precision / $3) * $4 * 86400) AS at,
              $5::bigint + CASE WHEN g <= 100 THEN $6 ELSE g % $6 END AS issue_id
       FROM generate_series(1, $3::integer) g),
     claimed AS (INSERT INTO issues.event_ids (project_id, event_id, claimed_on, received_at, id) SELECT $1, event_id, date_trunc('day', at, 'UTC'), at, id FROM events)
     INSERT INTO issues.error_events (id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags) OVERRIDING SYSTEM VALUE
     SELECT e.id, $1, e.issue_id, e.event_id, e.at, e.at, s.data::text::json, s.unhandled, s.tags FROM events e JOIN public.bench_samples s ON s.n = e.g % $7`,
    [projectId, new Date(END.getTime() - 1000), EVENTS, DAYS, first, ISSUES, SAMPLES],
  );
  await database.execute(
    `UPDATE issues.issues i SET first_seen = s.first_seen, last_seen = s.last_seen, times_seen = s.seen
     FROM (SELECT issue_id, min(occurred_at) AS first_seen, max(occurred_at) AS last_seen, count(*) AS seen FROM issues.error_events GROUP BY 1) s
     WHERE i.id = s.issue_id`,
  );
  await database.execute('VACUUM ANALYZE');
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);

  const leaves = `SELECT relid FROM pg_partition_tree('issues.error_events') WHERE isleaf`;
  const partitioned = await sizes(database, leaves);
  const claims = await sizes(database, `SELECT relid FROM pg_partition_tree('issues.event_ids') WHERE isleaf`);

  // The same rows in the shape of the table before partitioning (its five indexes, no claims table); the payloads are copied as they are (lz4).
  await database.execute(`CREATE TABLE public.bench_before (LIKE issues.error_events INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)`);
  await database.execute(`INSERT INTO public.bench_before SELECT * FROM issues.error_events`);
  await database.execute(`
    ALTER TABLE public.bench_before ADD PRIMARY KEY (id), ADD UNIQUE (project_id, event_id);
    CREATE INDEX ON public.bench_before (issue_id, occurred_at DESC, id DESC);
    CREATE INDEX ON public.bench_before (received_at);
    CREATE INDEX ON public.bench_before (project_id, occurred_at, id) INCLUDE (issue_id);`);
  await database.execute('VACUUM ANALYZE public.bench_before');
  const before = await sizes(database, `SELECT 'public.bench_before'::regclass AS relid`);

  // The payload alone per compression method, whole and without what its columns hold (values compress one by one).
  await database.execute(
    `CREATE TABLE public.bench_payloads (full_lz4 json COMPRESSION lz4, full_pglz json COMPRESSION pglz, lean_lz4 json COMPRESSION lz4, lean_pglz json COMPRESSION pglz)`,
  );
  // Cast through text: a value copied as it is keeps the compression it was stored with.
  await database.execute(
    `INSERT INTO public.bench_payloads SELECT data::text::json, data::text::json, lean::text::json, lean::text::json FROM public.bench_samples`,
  );
  const [payload] = await database.query<Record<string, number>>(
    `SELECT avg(octet_length(full_lz4::text))::float8 AS raw, avg(octet_length(lean_lz4::text))::float8 AS lean_raw,
            avg(pg_column_size(full_lz4))::float8 AS lz4, avg(pg_column_size(full_pglz))::float8 AS pglz,
            avg(pg_column_size(lean_lz4))::float8 AS lean_lz4, avg(pg_column_size(lean_pglz))::float8 AS lean_pglz,
            (SELECT avg(pg_column_size(tags))::float8 FROM public.bench_samples) AS tags
     FROM public.bench_payloads`,
  );

  // The hot reads, as the repositories write them, explained.
  const readModel = new IssueReadModel(database, new FixedClock(END));
  const captured: { statement?: [string, unknown[]] } = {};
  const query = database.query.bind(database);
  database.query = (async (text: string, params?: readonly unknown[]) => {
    if (text.includes('issues.error_events')) captured.statement = [text, [...(params ?? [])]];
    return query(text, params);
  }) as typeof database.query;
  const newIssue = String(BigInt(first) + BigInt(ISSUES));
  const oldIssue = String(BigInt(first) + 1n);
  const seen = async (id: string) =>
    (await query<{ id: string; first_seen: Date; last_seen: Date }>(`SELECT id::text AS id, first_seen, last_seen FROM issues.issues WHERE id = $1`, [id]))[0];
  const explain = async (name: string, read: () => Promise<unknown>) => {
    captured.statement = undefined;
    await read();
    const explained = captured.statement as [string, unknown[]] | undefined;
    if (!explained) throw new Error(`${name}: no statement on the stored events`);
    const [text, params] = explained;
    const [
      {
        'QUERY PLAN': [plan],
      },
    ] = await query<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown>; 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
    const partitionsOfPlan = partitionsRead(plan.Plan);
    return { name, ms: round(plan['Execution Time'], 2), read: partitionsOfPlan.read.length, of: DAYS + 1, removed: partitionsOfPlan.removed };
  };
  const [latest] = (await readModel.events(newIssue, 0, 1)) as ErrorEventRow[];
  const topFrames = new IssueTopFramesRepository();
  const since = new Date(END.getTime() - DAY_MS).toISOString();
  const reads = [
    await explain('latest event of a new issue', async () => readModel.edgeEvent(await seen(newIssue), 'latest')),
    await explain('latest event of an old issue', async () => readModel.edgeEvent(await seen(oldIssue), 'latest')),
    await explain('oldest event of an old issue', async () => readModel.edgeEvent(await seen(oldIssue), 'oldest')),
    await explain("a new issue's events page", () => readModel.events(newIssue, 0, 100)),
    await explain("an old issue's events page", () => readModel.events(oldIssue, 0, 100)),
    await explain('an event by id', () => readModel.event({ projectId }, latest.event_id)),
    await explain("an event's neighbours", () => readModel.neighbours(latest)),
    await explain('top frames of two issues', () => topFrames.topInAppFrames(database, [newIssue, oldIssue])),
    await explain("a project's events, newest first", () => readModel.projectEvents(projectId, 0, 100)),
    await explain('event search, last 24 hours (its time conditions)', () =>
      database.query(
        `SELECT count(*) FROM issues.error_events e WHERE e.project_id = $1::bigint AND e.occurred_at >= $2::timestamptz AND e.occurred_at < $3::timestamptz
           AND e.received_at >= $2::timestamptz - interval '1 minute' AND e.received_at < $3::timestamptz + interval '30 days'`,
        [projectId, since, END.toISOString()],
      ),
    ),
  ];

  const rows = EVENTS;
  const summary = {
    ...(await environment(url)),
    events: EVENTS,
    samples: SAMPLES,
    days: DAYS,
    loadSeconds,
    sentBytes: round(stored.reduce((sum, s) => sum + s.sent, 0) / SAMPLES, 0),
    partitioned: perRow(partitioned, rows),
    claims: perRow(claims, rows),
    before: perRow(before, rows),
    payload: Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, round(value, 0)])),
    reads,
  };
  saveResults('event-storage.json', summary);
  console.log(JSON.stringify(summary, null, 2));
  console.log(
    ['| read | partitions read | of | SQL ms |', '|---|---|---|---|', ...reads.map((read) => `| ${read.name} | ${read.read} | ${read.of} | ${read.ms} |`)].join(
      '\n',
    ),
  );
  await dataSource.destroy();
  if (process.env.BENCH_KEEP !== '1') await dropDatabase(DATABASE);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
