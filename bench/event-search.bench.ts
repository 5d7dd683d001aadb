import 'reflect-metadata';
import { Database } from '@faultline/platform';
import { dropDatabase, environment, percentile, round, saveResults, startApiOnFreshDatabase } from './bench-support';

/**
 * Event search (`/organizations/{org}/events/`, errors) through the whole service over BENCH_EVENTS
 * stored events spread over the last 24 hours of one project, in BENCH_ISSUES issues, loaded
 * straight into the table with generate_series: each search's HTTP time (median of BENCH_RUNS)
 * and what PostgreSQL alone spends on its statement (EXPLAIN ANALYZE).
 *
 * Usage: npm run -s build && node dist/bench/event-search.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_event_search on), BENCH_EVENTS (1000000),
 *      BENCH_ISSUES (1000), BENCH_RUNS (5), BENCH_KEEP (1: keep the database), BENCH_RESULTS_DIR.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ISSUES = Number(process.env.BENCH_ISSUES ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 9303;
const DATABASE = 'faultline_bench_event_search';
const TOKEN = 'bench-token';
const SEARCHES = [
  'field=issue&field=count()&sort=-count&statsPeriod=24h',
  'field=issue.id&field=count()&field=last_seen()&sort=-count&statsPeriod=24h',
  'field=count()&field=count_unique(issue)&statsPeriod=24h',
  'field=issue&field=count()&sort=-count&statsPeriod=1h',
  'field=id&field=title&field=timestamp&sort=-timestamp&statsPeriod=24h',
  'field=issue&field=title&field=project&field=count()&field=last_seen()&sort=-last_seen&statsPeriod=24h',
  'field=issue&field=count()&sort=-count&statsPeriod=24h&query=level:warning',
  'field=count_unique(user)&statsPeriod=24h',
];

async function seed(database: Database, projectId: string): Promise<void> {
  await database.execute(
    `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, first_seen, last_seen, times_seen, user_count)
     SELECT $1, 'fp' || g, 'WEB-' || g, 'TypeError: thing ' || g || ' is undefined', 'app/f' || g || '.js', 'error', 'node', 'unresolved',
       now() - interval '1 day', now(), 1, 1
     FROM generate_series(1, $2::integer) g`,
    [projectId, ISSUES],
  );
  const [{ first }] = await database.query<{ first: string }>(`SELECT min(id)::text AS first FROM issues.issues WHERE project_id = $1`, [projectId]);
  // Issue sizes follow a long tail (a cube), as real projects' do; events are spread evenly over 24 hours.
  await database.execute(
    `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
     SELECT $1, $2::bigint + issue, md5(g::text), t, t,
       json_build_object('title', 'TypeError: thing ' || issue || ' is undefined', 'level', CASE WHEN g % 10 = 0 THEN 'warning' ELSE 'error' END,
         'platform', 'node', 'release', 'shop@' || (g % 20), 'environment', 'production', 'culprit', 'app/f.js',
         'tags', json_build_array(json_build_array('browser', 'Chrome ' || (g % 10))), 'user', json_build_object('id', 'u' || (g % 5000)))
     FROM generate_series(1, $3::integer) g,
       LATERAL (SELECT now() - make_interval(secs => (g % 86400)::double precision) AS t,
                       floor($4::integer * power((g % 9973)::double precision / 9973, 3))::bigint AS issue) derived`,
    [projectId, first, EVENTS, ISSUES],
  );
}

async function main(): Promise<void> {
  const { app, databaseUrl } = await startApiOnFreshDatabase(DATABASE, PORT, TOKEN, 'acme');
  const database = app.get(Database);
  const [project] = await database.query<{ id: string }>(`SELECT id::text AS id FROM projects.projects WHERE slug = 'web'`);
  const loadStarted = performance.now();
  await seed(database, project.id);
  await database.execute('VACUUM ANALYZE');
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);

  // The search statement of each request, to be explained on its own.
  let statement: [string, unknown[]] | undefined;
  const query = database.query.bind(database);
  database.query = (async (text: string, params?: readonly unknown[]) => {
    if (text.includes('FROM issues.error_events e')) statement = [text, [...(params ?? [])]];
    return query(text, params);
  }) as typeof database.query;

  const results: Array<{ search: string; rows: number; httpMs: number; sqlMs: number }> = [];
  for (const search of SEARCHES) {
    const url = `http://127.0.0.1:${PORT}/api/0/organizations/acme/events/?${search}`;
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      const body = (await response.json()) as { data: unknown[] };
      if (response.status !== 200) throw new Error(`${search}: ${response.status} ${JSON.stringify(body)}`);
      if (run > 0) times.push(performance.now() - started);
      rows = body.data.length;
    }
    const [text, params] = statement as [string, unknown[]];
    const [
      {
        'QUERY PLAN': [plan],
      },
    ] = await query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
    results.push({ search, rows, httpMs: round(percentile(times, 50), 1), sqlMs: round(plan['Execution Time'], 1) });
  }
  const summary = { ...(await environment(databaseUrl)), events: EVENTS, issues: ISSUES, runs: RUNS, loadSeconds, results };
  saveResults('event-search.json', summary);
  console.log(
    [
      `Event search over ${EVENTS} events of one project in the last 24 hours, ${ISSUES} issues (loaded in ${loadSeconds} s); median of ${RUNS} requests`,
      '| search | rows | HTTP ms | SQL ms |',
      '|---|---|---|---|',
      ...results.map((result) => `| \`${result.search}\` | ${result.rows} | ${result.httpMs} | ${result.sqlMs} |`),
    ].join('\n'),
  );
  await app.close();
  if (process.env.BENCH_KEEP !== '1') await dropDatabase(DATABASE);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
