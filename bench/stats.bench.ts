import 'reflect-metadata';
import { Client } from 'pg';
import { Database, loadConfig, moveDefaultRowsIntoDays } from '@faultline/platform';
import { createApp } from '../apps/api/src/create-app';
import { autocannon, coresUsed, cpuSnapshot, environment, recreateDatabase, round, saveResults } from './bench-support';

/**
 * GET /api/0/projects/{org}/{project}/stats/ over 30 days at 1h resolution, through the whole
 * service, for a project with 1,000,000 events. The endpoint reads only the project_stats rollups,
 * so the events are seeded as the rollups the EventProcessor would have written for them (buckets
 * at 10 s, 1 h and 1 d for `received` and `generated`), computed in SQL from a million random
 * arrival times over the last 30 days; no raw events exist.
 *
 * Usage: npm run -s build && node dist/bench/stats.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_stats on), BENCH_EVENTS (1000000),
 *      BENCH_CONNECTIONS (1,10), BENCH_DURATION (10 s), BENCH_RESOLUTION (1h),
 *      BENCH_RESULTS_DIR (bench/results: stats.json).
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const CONNECTION_LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const RESOLUTION = process.env.BENCH_RESOLUTION ?? '1h';
const STEP = ({ '10s': 10, '1h': 3600, '1d': 86400 } as Record<string, number>)[RESOLUTION];
const DAYS = 30;
const PORT = 9301;
const DATABASE = 'faultline_bench_stats';
const TOKEN = 'bench-token';

/**
 * The rollups of EVENTS arrivals spread at random over the DAYS before `nowSeconds`, in the write
 * format of RollupsRepository.addStats: one row per (project, stat, resolution, bucket start),
 * the bucket start being the arrival time floored to a multiple of the resolution in epoch time.
 */
async function seed(client: Client, projectId: string, nowSeconds: number): Promise<void> {
  await client.query(`SELECT setseed(0.42)`);
  await client.query(
    `CREATE TEMP TABLE bench_arrivals AS
     SELECT to_timestamp($1::double precision - random() * $2::double precision) AS at FROM generate_series(1, $3::integer)`,
    [nowSeconds, DAYS * 86400, EVENTS],
  );
  await client.query(
    `INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count)
     SELECT $1::bigint, stat, resolution, to_timestamp(floor(extract(epoch FROM at) / seconds) * seconds) AS bucket, count(*)
     FROM bench_arrivals
     CROSS JOIN (VALUES ('10s', 10), ('1h', 3600), ('1d', 86400)) AS r (resolution, seconds)
     CROSS JOIN (VALUES ('received'), ('generated')) AS s (stat)
     GROUP BY 1, 2, 3, 4`,
    [projectId],
  );
  await client.query(`DROP TABLE bench_arrivals`);
}

async function main(): Promise<void> {
  const databaseUrl = await recreateDatabase(DATABASE);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'api',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: TOKEN,
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
  });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');

  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const [{ id: projectId }] = (await client.query<{ id: string }>(`SELECT id FROM projects.projects WHERE slug = 'web'`)).rows;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const seedStarted = performance.now();
  await seed(client, projectId, nowSeconds);
  // The seeded days get their partitions, as a restore would give them: nothing else writes meanwhile.
  await moveDefaultRowsIntoDays(app.get(Database));
  await client.query(`VACUUM ANALYZE ingest.project_stats`);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const rows = Object.fromEntries(
    (
      await client.query<{ resolution: string; rows: string; events: string }>(
        `SELECT resolution, count(*) AS rows, sum(count) AS events FROM ingest.project_stats WHERE stat = 'received' GROUP BY resolution ORDER BY resolution`,
      )
    ).rows.map((row) => [row.resolution, { rows: Number(row.rows), events: Number(row.events) }]),
  );
  const [{ size }] = (
    await client.query<{ size: string }>(`SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) AS size FROM pg_partition_tree('ingest.project_stats')`)
  ).rows;

  const since = nowSeconds - DAYS * 86400;
  const path = `/api/0/projects/acme/web/stats/?stat=received&since=${since}&until=${nowSeconds}&resolution=${RESOLUTION}`;
  const url = `http://127.0.0.1:${PORT}${path}`;
  const headers = { authorization: `Bearer ${TOKEN}` };

  // The answer must hold every seeded event, whatever the resolution.
  const check = await fetch(url, { headers });
  const body = await check.text();
  if (check.status !== 200) throw new Error(`Faultline answered ${check.status}: ${body}`);
  const points = JSON.parse(body) as Array<[number, number]>;
  const total = points.reduce((sum, [, count]) => sum + count, 0);
  if (total !== EVENTS) throw new Error(`the stats answer ${total} events, not ${EVENTS}`);

  // What PostgreSQL alone spends on the endpoint's statement.
  const explain = (
    await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number; 'Planning Time': number; Plan: { 'Node Type': string; 'Index Name'?: string } }> }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT bucket, count FROM ingest.project_stats
       WHERE project_id = $1 AND stat = $2 AND resolution = $3 AND bucket >= to_timestamp($4) AND bucket <= to_timestamp($5)`,
      [projectId, 'received', RESOLUTION, Math.floor(since / STEP) * STEP, Math.floor(nowSeconds / STEP) * STEP],
    )
  ).rows[0]['QUERY PLAN'][0];
  await client.end();

  const args = (connections: number, seconds: number) => ['-c', String(connections), '-d', String(seconds), '-H', `authorization=Bearer ${TOKEN}`, url];
  await autocannon(args(10, 3)); // warm-up
  const runs = [];
  for (const connections of CONNECTION_LEVELS) {
    const before = cpuSnapshot(DATABASE);
    const result = await autocannon(args(connections, DURATION));
    const cores = coresUsed(before, cpuSnapshot(DATABASE));
    runs.push({
      connections,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors + result.non2xx,
      serverCpuMsPerRequest: round(((cores.server * DURATION) / Math.max(1, result.requests.total)) * 1000, 2),
      cores,
    });
  }

  const summary = {
    ...(await environment(databaseUrl)),
    events: EVENTS,
    days: DAYS,
    resolution: RESOLUTION,
    seedSeconds: round(seedSeconds),
    rollups: rows,
    tableSize: size,
    buckets: points.length,
    responseBytes: Buffer.byteLength(body),
    sql: {
      plan: `${explain.Plan['Node Type']}${explain.Plan['Index Name'] ? ` on ${explain.Plan['Index Name']}` : ''}`,
      planningMs: explain['Planning Time'],
      executionMs: explain['Execution Time'],
    },
    runs,
  };
  saveResults('stats.json', summary);
  console.log(JSON.stringify(summary, null, 2));
  console.log(
    [
      `GET …/stats/?stat=received&since=<now-${DAYS}d>&until=<now>&resolution=${RESOLUTION}: ${points.length} buckets, ${summary.responseBytes} bytes;`,
      `${EVENTS} events as rollups (${Object.entries(rows)
        .map(([resolution, row]) => `${resolution}: ${row.rows} rows`)
        .join(', ')} per stat; project_stats ${size}); SQL alone ${explain['Execution Time']} ms (${summary.sql.plan})`,
      '| connections | req/s | p50 ms | p99 ms | max ms | server CPU ms/request | target p99 < 50 ms |',
      '|---|---|---|---|---|---|---|',
      ...runs.map(
        (run) =>
          `| ${run.connections} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${run.max} | ${run.serverCpuMsPerRequest} | ${run.p99 < 50 ? 'met' : '**missed**'} |`,
      ),
    ].join('\n'),
  );
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
