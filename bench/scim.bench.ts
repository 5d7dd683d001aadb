import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { loadConfig } from '@faultline/platform';
import { createApp } from '../apps/api/src/create-app';
import { autocannon, coresUsed, cpuSnapshot, environment, recreateDatabase, round, saveResults } from './bench-support';

/**
 * SCIM at the size of a large organization, through the whole service (`ROLE=api`): 100,000
 * members seeded in SQL (generate_series, with names, e-mails, external ids, and 50 teams of 1,000
 * members), then
 *   1. `GET /Users?filter=userName eq "..."`: lookups of random members one at a time (from a
 *      separate process, latency of each request), then autocannon on one userName;
 *   2. a 100-item page `GET /Users?startIndex=S&count=100`: the first page, one in the middle and
 *      the last, each requested again and again with autocannon; then every page in order, one at
 *      a time, as an identity provider's import reads them;
 *   3. provisioning 10,000 users with `POST /Users`, one request at a time (from a separate process).
 *
 * Usage: npm run bench:scim
 * Env: DATABASE_URL (server to create faultline_bench_scim on), BENCH_MEMBERS (100000),
 *      BENCH_PROVISION (10000), BENCH_LOOKUPS (2000), BENCH_CONNECTIONS (1,10),
 *      BENCH_DURATION (10 s), BENCH_RESULTS_DIR (bench/results: scim.json).
 */
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const PROVISION = Number(process.env.BENCH_PROVISION ?? 10_000);
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 2_000);
const CONNECTION_LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PORT = 9401;
const DATABASE = 'faultline_bench_scim';
const TOKEN = 'bench-token';
const TARGETS = { filterP99: 10, pageP99: 30, provisionSeconds: 60 };

/** A self-signed certificate for the SAML provider SCIM needs (its content is not used here). */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBfTCCASOgAwIBAgIUTG85RR0+o+1DXNKLt7BcfMlodkcwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJaWRwLmJlbmNoMB4XDTI2MTEyMjE5MTkxM1oXDTM2MTExOTE5
MTkxM1owFDESMBAGA1UEAwwJaWRwLmJlbmNoMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAE8sxU9zN4hY0+rCpghX3wEkJ7WB5/GXXO22S0aUndIuldKbXAXNzQ7zJa
4ws2I7Z+XwLS5Bq68OAl1N0xbZJzQ6NTMFEwHQYDVR0OBBYEFGGsd/0VnTB3UHj2
Bq4oI25YBvUEMB8GA1UdIwQYMBaAFGGsd/0VnTB3UHj2Bq4oI25YBvUEMA8GA1Ud
EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAPmVGCzLeN/E/Y+6BHgzMtDf
N4yAdrI12ikbAQjRBeP8AiBT+EhAXUirZF6yav9XDNfRqIqr6ZLkvuyeV0jh8bBZ
aA==
-----END CERTIFICATE-----`;

async function seed(client: Client, organizationId: string): Promise<void> {
  await client.query(
    `INSERT INTO identity.users (email, name) SELECT 'member' || n || '@bench.example', 'Member ' || n FROM generate_series(1, $1::integer) AS n`,
    [MEMBERS],
  );
  await client.query(
    `INSERT INTO identity.organization_members (organization_id, user_id, role, external_id, display_name, name_parts, emails, idp_provisioned)
     SELECT $1, u.id, 'member', 'ext-' || u.id, u.name, jsonb_build_object('givenName', 'Member', 'familyName', u.id::text),
            jsonb_build_array(jsonb_build_object('value', u.email, 'type', 'work', 'primary', true)), true
     FROM identity.users u WHERE u.email LIKE '%@bench.example' ORDER BY u.id`,
    [organizationId],
  );
  await client.query(
    `INSERT INTO identity.teams (organization_id, slug, name, idp_provisioned) SELECT $1, 'team-' || n, 'Team ' || n, true FROM generate_series(1, 50) AS n`,
    [organizationId],
  );
  await client.query(
    `INSERT INTO identity.team_members (team_id, member_id)
     SELECT t.id, m.id FROM identity.teams t JOIN identity.organization_members m ON m.organization_id = t.organization_id
     WHERE t.organization_id = $1 AND t.slug LIKE 'team-%' AND m.id % 50 = (t.id % 50) AND m.id % 2 = 0`,
    [organizationId],
  );
  await client.query(`VACUUM ANALYZE identity.users, identity.organization_members, identity.teams, identity.team_members`);
}

/** Random members looked up one at a time with fetch; prints the latencies' percentiles as JSON. */
const LOOKUP_CLIENT = `
const { BASE, TOKEN, MEMBERS, LOOKUPS } = process.env;
const headers = { authorization: 'Bearer ' + TOKEN };
const url = () => BASE + '/Users?filter=' + encodeURIComponent('userName eq "Member' + (1 + Math.floor(Math.random() * Number(MEMBERS))) + '@bench.example"') + '&startIndex=1&count=100';
(async () => {
  const times = [];
  for (let i = 0; i < 200 + Number(LOOKUPS); i++) {
    const started = performance.now();
    const response = await fetch(url(), { headers });
    const body = await response.json();
    if (response.status !== 200 || body.totalResults !== 1) throw new Error('lookup answered ' + response.status);
    if (i >= 200) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p) => Number(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)].toFixed(2));
  console.log(JSON.stringify({ requests: times.length, p50: at(50), p99: at(99), max: at(100) }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** Reads every user, 100 at a time in order, as a provider's import does; prints the pages' latencies. */
const IMPORT_CLIENT = `
const { BASE, TOKEN } = process.env;
const headers = { authorization: 'Bearer ' + TOKEN };
(async () => {
  const times = [];
  let users = 0;
  const started = performance.now();
  for (let startIndex = 1; ; startIndex += 100) {
    const at = performance.now();
    const response = await fetch(BASE + '/Users?startIndex=' + startIndex + '&count=100', { headers });
    const body = await response.json();
    if (response.status !== 200) throw new Error('page answered ' + response.status);
    times.push(performance.now() - at);
    users += body.Resources.length;
    if (startIndex + 100 > body.totalResults) break;
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p) => Number(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)].toFixed(2));
  console.log(JSON.stringify({ pages: times.length, users, seconds: Number(seconds.toFixed(1)), p50: pct(50), p99: pct(99), max: pct(100) }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** USERS users created with POST /Users one after the other, as Okta and Entra ID provision; prints the time taken. */
const PROVISION_CLIENT = `
const { BASE, TOKEN, USERS } = process.env;
const headers = { authorization: 'Bearer ' + TOKEN, 'content-type': 'application/scim+json' };
(async () => {
  const times = [];
  const started = performance.now();
  for (let i = 0; i < Number(USERS); i++) {
    const at = performance.now();
    const response = await fetch(BASE + '/Users', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'new' + i + '@provisioned.example',
        name: { givenName: 'New', familyName: String(i) },
        emails: [{ primary: true, value: 'new' + i + '@provisioned.example', type: 'work' }],
        displayName: 'New ' + i,
        externalId: '00u-new-' + i,
        active: true,
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error('provisioning answered ' + response.status);
    times.push(performance.now() - at);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p) => Number(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)].toFixed(2));
  console.log(JSON.stringify({ users: times.length, seconds: Number(seconds.toFixed(1)), perSecond: Number((times.length / seconds).toFixed(1)), p50: pct(50), p99: pct(99), max: pct(100) }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

async function sequentialClient<T = { requests: number; p50: number; p99: number; max: number }>(script: string, env: Record<string, string>): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env: { ...process.env, ...env }, maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout);
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; body: any }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.json();
  return { ms: performance.now() - started, status: response.status, body };
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
  const base = `http://127.0.0.1:${PORT}`;
  const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  await fetch(`${base}/api/0/organizations/acme/`, { method: 'PUT', headers: admin, body: JSON.stringify({ plan: 'business' }) });
  const provider = await fetch(`${base}/api/0/organizations/acme/auth-provider/`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ provider: 'saml2', idpEntityId: 'https://idp.bench/', ssoUrl: 'https://idp.bench/sso', x509cert: CERTIFICATE, scimEnabled: true }),
  });
  const { scimToken } = (await provider.json()) as { scimToken?: string };
  if (!scimToken) throw new Error(`enabling SCIM answered ${provider.status}`);
  const scimHeaders = { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' };
  const scimBase = `${base}/api/0/organizations/acme/scim/v2`;

  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const [{ id: organizationId }] = (await client.query<{ id: string }>(`SELECT id FROM identity.organizations WHERE slug = 'acme'`)).rows;
  const seedStarted = performance.now();
  await seed(client, organizationId);
  const seedSeconds = round((performance.now() - seedStarted) / 1000);
  const [{ members }] = (
    await client.query<{ members: number }>(`SELECT count(*)::int AS members FROM identity.organization_members WHERE organization_id = $1`, [organizationId])
  ).rows;

  // 1. userName lookups: random members, one request at a time from another process, then autocannon on one of them.
  const userNameUrl = (n: number) => `${scimBase}/Users?filter=${encodeURIComponent(`userName eq "Member${n}@bench.example"`)}&startIndex=1&count=100`;
  const sequentialLookups = await sequentialClient(LOOKUP_CLIENT, { BASE: scimBase, TOKEN: scimToken, MEMBERS: String(MEMBERS), LOOKUPS: String(LOOKUPS) });

  const load = async (url: string) => {
    await autocannon(['-c', '10', '-d', '3', '-H', `authorization=Bearer ${scimToken}`, url]); // warm-up
    const runs = [];
    for (const connections of CONNECTION_LEVELS) {
      const result = await autocannon(['-c', String(connections), '-d', String(DURATION), '-H', `authorization=Bearer ${scimToken}`, url]);
      runs.push({
        connections,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        errors: result.errors + result.non2xx,
      });
    }
    return runs;
  };
  const filterRuns = await load(userNameUrl(Math.floor(MEMBERS / 2)));

  // 2. 100-item pages: the first, one in the middle, the last.
  const pageUrl = (startIndex: number) => `${scimBase}/Users?startIndex=${startIndex}&count=100`;
  const firstPage = await timed(pageUrl(1), { headers: scimHeaders });
  if (firstPage.body.itemsPerPage !== 100 || firstPage.body.totalResults !== members)
    throw new Error(`page answered ${JSON.stringify(firstPage.body).slice(0, 200)}`);
  const pageBytes = Buffer.byteLength(JSON.stringify(firstPage.body));
  const pages: Record<string, Awaited<ReturnType<typeof load>>> = {};
  for (const [name, startIndex] of [
    ['first', 1],
    ['middle', Math.floor(members / 2)],
    ['last', members - 99],
  ] as const) {
    pages[name] = await load(pageUrl(startIndex));
  }

  // 2b. An identity provider's import: every page in order, one at a time, from another process.
  const importWalk = await sequentialClient<{ pages: number; users: number; seconds: number; p50: number; p99: number; max: number }>(IMPORT_CLIENT, {
    BASE: scimBase,
    TOKEN: scimToken,
  });
  if (importWalk.users !== members) throw new Error(`the import read ${importWalk.users} users of ${members}`);

  // 3. Provisioning, one request at a time, from another process.
  const provisioningCpu = cpuSnapshot(DATABASE);
  const provisioning = await sequentialClient<{ users: number; seconds: number; perSecond: number; p50: number; p99: number; max: number }>(PROVISION_CLIENT, {
    BASE: scimBase,
    TOKEN: scimToken,
    USERS: String(PROVISION),
  });
  const created = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity.users WHERE email LIKE '%@provisioned.example'`)).rows[0].n;
  if (created !== PROVISION) throw new Error(`provisioned ${created} of ${PROVISION}`);
  const provisionSeconds = provisioning.seconds;
  // Where the time went: cores used by this process (the server), the client process and PostgreSQL.
  const provisioningCores = coresUsed(provisioningCpu, cpuSnapshot(DATABASE));
  const serverMsPerUser = round((provisioningCores.server * provisionSeconds * 1000) / PROVISION, 2);
  const postgresMsPerUser = round((provisioningCores.postgres * provisionSeconds * 1000) / PROVISION, 2);

  const explain = async (sql: string, params: unknown[]) =>
    (await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'][0][
      'Execution Time'
    ];
  // What PostgreSQL alone spends: the userName match, skipping to the last page, and the count the member counts spare.
  const sqlMs = {
    userNameMatch: await explain(`SELECT v.id FROM identity.scim_users v WHERE v.organization_id = $1 AND (lower(v.user_name) = lower($2))`, [
      organizationId,
      'member5@bench.example',
    ]),
    lastPageSkip: await explain(`SELECT v.id FROM identity.scim_users v WHERE v.organization_id = $1 ORDER BY v.id OFFSET $2 LIMIT 100`, [
      organizationId,
      members - 100,
    ]),
    lastPageAfterPreviousPage: await explain(`SELECT v.id FROM identity.scim_users v WHERE v.organization_id = $1 AND v.id > $2 ORDER BY v.id LIMIT 100`, [
      organizationId,
      (
        await client.query<{ id: string }>(`SELECT id FROM identity.organization_members WHERE organization_id = $1 ORDER BY id OFFSET $2 LIMIT 1`, [
          organizationId,
          members - 101,
        ])
      ).rows[0].id,
    ]),
    countAllMembers: await explain(`SELECT count(*) FROM identity.organization_members WHERE organization_id = $1`, [organizationId]),
  };
  await client.end();

  const summary = {
    ...(await environment(databaseUrl)),
    members,
    seedSeconds,
    pageBytes,
    sqlMs,
    sequentialLookups,
    filterRuns,
    pages,
    importWalk,
    provisioning: { ...provisioning, cores: provisioningCores, serverMsPerUser, postgresMsPerUser },
    targets: TARGETS,
  };
  saveResults('scim.json', summary);
  console.log(JSON.stringify(summary, null, 2));
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const loadRows = (name: string, runs: typeof filterRuns, target: number) =>
    runs.map(
      (run) =>
        `| ${name} | ${run.connections} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${run.max} | ${run.errors} | ${verdict(run.p99 < target)} (< ${target} ms) |`,
    );
  console.log(
    [
      `${members} members (seeded in ${seedSeconds} s); a 100-item page is ${pageBytes} bytes`,
      '| request | connections | req/s | p50 ms | p99 ms | max ms | errors | target p99 |',
      '|---|---|---|---|---|---|---|---|',
      `| userName eq, ${LOOKUPS} random members one at a time | 1 | | ${sequentialLookups.p50} | ${sequentialLookups.p99} | ${sequentialLookups.max} | 0 | ${verdict(sequentialLookups.p99 < TARGETS.filterP99)} (< 10 ms) |`,
      ...loadRows('userName eq', filterRuns, TARGETS.filterP99),
      ...Object.entries(pages).flatMap(([name, runs]) => loadRows(`100-item page (${name}), the same page again and again`, runs, TARGETS.pageP99)),
      `| 100-item pages, all ${importWalk.pages} in order (an import, ${importWalk.seconds} s) | 1 | | ${importWalk.p50} | ${importWalk.p99} | ${importWalk.max} | 0 | ${verdict(importWalk.p99 < TARGETS.pageP99)} (< 30 ms) |`,
      '',
      `Provisioning ${PROVISION} users one POST at a time: ${provisionSeconds} s (${provisioning.perSecond}/s, p50 ${provisioning.p50} ms, p99 ${provisioning.p99} ms): ${verdict(provisionSeconds < TARGETS.provisionSeconds)} (< 60 s)`,
      `  CPU per user: server ${serverMsPerUser} ms, PostgreSQL ${postgresMsPerUser} ms; cores: server ${provisioningCores.server}, client ${provisioningCores.autocannon}, PostgreSQL ${provisioningCores.postgres}, other ${provisioningCores.other} of ${provisioningCores.machineCores}`,
    ].join('\n'),
  );
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
