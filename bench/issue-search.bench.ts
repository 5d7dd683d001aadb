import 'reflect-metadata';
import { Database } from '@faultline/platform';
import { environment, percentile, round, saveResults, startApiOnFreshDatabase } from './bench-support';

/**
 * Issue search on the organization issue list, through the whole service, for a small
 * organization (BENCH_SMALL issues) beside a large one (BENCH_LARGE issues) on the same database:
 * each search's HTTP time (median of BENCH_RUNS) and what PostgreSQL alone spends on the list
 * statement (EXPLAIN ANALYZE), for both organizations. Every issue carries seven tag values, as
 * ingestion keeps them (environment, release, region, browser, level, user, route).
 *
 * Usage: npm run -s build && node dist/bench/issue-search.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_issue_search on), BENCH_SMALL (500),
 *      BENCH_LARGE (60000), BENCH_RUNS (5), BENCH_RESULTS_DIR (bench/results: issue-search.json).
 */
const SMALL = Number(process.env.BENCH_SMALL ?? 500);
const LARGE = Number(process.env.BENCH_LARGE ?? 60_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 9302;
const DATABASE = 'faultline_bench_issue_search';
const TOKEN = 'bench-token';
const QUERIES = [
  '',
  'is:unresolved',
  'environment:staging',
  '!environment:production',
  'region:eu browser:"Chrome 3"',
  'route:/r/17',
  'region:*u*',
  'has:route',
  '!has:route',
  'firstSeen:-24h timesSeen:>50',
  'thing 4242',
];

async function seed(database: Database, projectId: string, issues: number): Promise<void> {
  await database.execute(
    `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, first_seen, last_seen, times_seen, user_count, first_release)
     SELECT $1, 'fp' || g, 'P-' || g, 'TypeError: thing ' || g || ' is undefined', 'app/f' || (g % 300) || '.js',
       (ARRAY['error', 'warning', 'info'])[1 + g % 3], 'javascript', (ARRAY['unresolved', 'unresolved', 'resolved', 'ignored'])[1 + g % 4],
       now() - make_interval(mins => g * 7), now() - make_interval(mins => g), 1 + g % 97, g % 13, 'shop@' || (g % 50)
     FROM generate_series(1, $2::integer) g`,
    [projectId, issues],
  );
  await database.execute(
    `INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
     SELECT i.id, t.key, t.value, 1, i.first_seen, i.last_seen FROM issues.issues i CROSS JOIN LATERAL (VALUES
       ('environment', CASE WHEN i.id % 5 = 0 THEN 'staging' ELSE 'production' END), ('release', 'shop@' || (i.id % 50)),
       ('region', (ARRAY['eu', 'us', 'ap'])[1 + i.id % 3]), ('browser', 'Chrome ' || (i.id % 10)), ('level', i.level),
       ('user', 'id:' || (i.id % 1000)), ('route', '/r/' || (i.id % 200))) AS t (key, value)
     WHERE i.project_id = $1`,
    [projectId],
  );
}

async function main(): Promise<void> {
  const { app, databaseUrl } = await startApiOnFreshDatabase(DATABASE, PORT, TOKEN, 'small');
  const database = app.get(Database);
  const [small] = await database.query<{ id: string }>(`SELECT id::text AS id FROM projects.projects WHERE slug = 'web'`);
  const [largeOrganization] = await database.query<{ id: string }>(
    `INSERT INTO identity.organizations (slug, name) VALUES ('large', 'Large') RETURNING id::text AS id`,
  );
  const [large] = await database.query<{ id: string }>(
    `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text AS id`,
    [largeOrganization.id],
  );
  await database.execute(
    `INSERT INTO identity.organization_members (organization_id, user_id, role) SELECT $1, user_id, 'owner' FROM identity.organization_members WHERE organization_id <> $1`,
    [largeOrganization.id],
  );
  await seed(database, small.id, SMALL);
  await seed(database, large.id, LARGE);
  await database.execute('VACUUM ANALYZE');

  // The list statement of each request, to be explained on its own.
  let statement: [string, unknown[]] | undefined;
  const query = database.query.bind(database);
  database.query = (async (text: string, params?: readonly unknown[]) => {
    if (text.includes('FROM issues.issues i WHERE')) statement = [text, [...(params ?? [])]];
    return query(text, params);
  }) as typeof database.query;

  const results: Array<{ organization: string; query: string; issues: number; httpMs: number; sqlMs: number }> = [];
  for (const organization of ['small', 'large']) {
    for (const search of QUERIES) {
      const url = `http://127.0.0.1:${PORT}/api/0/organizations/${organization}/issues/?query=${encodeURIComponent(search)}`;
      const times: number[] = [];
      let found = 0;
      for (let run = 0; run <= RUNS; run++) {
        const started = performance.now();
        const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
        const body = (await response.json()) as unknown[];
        if (response.status !== 200) throw new Error(`${search}: ${response.status} ${JSON.stringify(body)}`);
        if (run > 0) times.push(performance.now() - started);
        found = body.length;
      }
      const [text, params] = statement as [string, unknown[]];
      const [
        {
          'QUERY PLAN': [plan],
        },
      ] = await query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
      results.push({ organization, query: search, issues: found, httpMs: round(percentile(times, 50), 1), sqlMs: round(plan['Execution Time'], 2) });
    }
  }
  const summary = { ...(await environment(databaseUrl)), small: SMALL, large: LARGE, runs: RUNS, results };
  saveResults('issue-search.json', summary);
  console.log(
    [
      `Organization issue list, ${SMALL} issues beside ${LARGE} of another organization (7 tag values each); median of ${RUNS} requests`,
      '| query | small: HTTP ms | small: SQL ms | large: HTTP ms | large: SQL ms |',
      '|---|---|---|---|---|',
      ...QUERIES.map((search) => {
        const [a, b] = ['small', 'large'].map((organization) => results.find((result) => result.organization === organization && result.query === search));
        return `| \`${search || '(empty)'}\` | ${a?.httpMs} | ${a?.sqlMs} | ${b?.httpMs} | ${b?.sqlMs} |`;
      }),
    ].join('\n'),
  );
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
