import 'reflect-metadata';
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { Client, Pool } from 'pg';
import { loadConfig } from '@faultline/platform';
import { ProjectDetailStatement } from '@faultline/projects';
import { recreateDatabase } from './bench-support';
import { createApp } from '../apps/api/src/create-app';

/**
 * GET /api/0/projects/{org}/{project}/ through the whole service (auth, tenancy, serialisation)
 * against a bare Fastify route running the same SQL on the same PostgreSQL, in one process, at the
 * same concurrency. Usage: DATABASE_URL=postgres://... npm run bench (see bench/README.md)
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Pairs of measurements; each round alternates which route goes first, and the summary takes medians. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const TOKEN = 'bench-token';

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

/** The load comes from autocannon in its own process, so it does not share the servers' event loop. */
async function run(url: string, headers: Record<string, string> = {}, duration = DURATION): Promise<LoadResult & { cpuMicrosPerRequest: number }> {
  const args = ['-c', String(CONNECTIONS), '-d', String(duration), '-j'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  // Both servers run in this process and only one is loaded at a time: its CPU is this process's.
  const cpuBefore = process.cpuUsage();
  const { stdout } = await promisify(execFile)(join(__dirname, '..', '..', 'node_modules', '.bin', 'autocannon'), [...args, url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const result = JSON.parse(stdout) as LoadResult;
  return { ...result, cpuMicrosPerRequest: Math.round((cpu.user + cpu.system) / Math.max(1, result.requests.total)) };
}

async function postgresVersion(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  return rows[0].server_version;
}

async function main(): Promise<void> {
  const databaseUrl = await recreateDatabase('faultline_bench');
  // An API process, as deployed: no background workers polling in the process that hosts both servers.
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'api',
    PORT: '9101',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: TOKEN,
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
  });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');

  const pool = new Pool({ connectionString: databaseUrl, max: config.databasePoolSize });
  const [ids] = (await pool.query(`SELECT o.id AS org, u.id AS user FROM identity.organizations o, identity.users u WHERE o.slug = 'acme' LIMIT 1`)).rows;
  const statement = app.get(ProjectDetailStatement);
  const bare = Fastify();
  bare.get('/bare/:project', async (request) => {
    const { project } = request.params as { project: string };
    const { rows } = await pool.query(statement.text(project), [ids.org, project, ids.user]);
    return rows[0];
  });
  await bare.listen({ port: 9102, host: '127.0.0.1' });

  const faultlineUrl = 'http://127.0.0.1:9101/api/0/projects/acme/web/';
  const bareUrl = 'http://127.0.0.1:9102/bare/web';
  const check = await fetch(faultlineUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (check.status !== 200) throw new Error(`Faultline answered ${check.status}`);

  // Warm both (JIT, connection pools, caches), then measure each in turn.
  await run(faultlineUrl, { authorization: `Bearer ${TOKEN}` }, 3);
  await run(bareUrl, {}, 3);
  const outcome = (result: Awaited<ReturnType<typeof run>>) => ({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    serverCpuMicrosPerRequest: result.cpuMicrosPerRequest,
  });
  type Outcome = ReturnType<typeof outcome>;
  const measure = {
    bare: async () => outcome(await run(bareUrl)),
    faultline: async () => outcome(await run(faultlineUrl, { authorization: `Bearer ${TOKEN}` })),
  };
  // One route is measured at a time; alternating the order keeps a drift in the machine's other
  // load from always landing on the same route.
  const rounds: Array<{ bare: Outcome; faultline: Outcome; ratio: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    let bareOutcome: Outcome;
    let faultlineOutcome: Outcome;
    if (round % 2 === 0) {
      bareOutcome = await measure.bare();
      faultlineOutcome = await measure.faultline();
    } else {
      faultlineOutcome = await measure.faultline();
      bareOutcome = await measure.bare();
    }
    const ratio = Number((faultlineOutcome.requestsPerSecond / bareOutcome.requestsPerSecond).toFixed(3));
    rounds.push({ bare: bareOutcome, faultline: faultlineOutcome, ratio });
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const medianOutcome = (pick: (round: (typeof rounds)[number]) => Outcome): Outcome => ({
    requestsPerSecond: median(rounds.map((round) => pick(round).requestsPerSecond)),
    p50: median(rounds.map((round) => pick(round).p50)),
    p99: median(rounds.map((round) => pick(round).p99)),
    errors: rounds.reduce((sum, round) => sum + pick(round).errors, 0),
    serverCpuMicrosPerRequest: median(rounds.map((round) => pick(round).serverCpuMicrosPerRequest)),
  });

  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    postgres: await postgresVersion(databaseUrl),
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
    bare: medianOutcome((round) => round.bare),
    faultline: medianOutcome((round) => round.faultline),
    ratio: median(rounds.map((round) => round.ratio)),
    perRound: rounds,
  };
  mkdirSync(join(__dirname, '..', '..', 'bench', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results', `project-detail-c${CONNECTIONS}.json`), JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
  const row = (name: string, r: typeof summary.bare) => `| ${name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.serverCpuMicrosPerRequest} |`;
  console.log(
    [
      `${CONNECTIONS} connections, ${DURATION} s, ${ROUNDS} round(s)${ROUNDS > 1 ? ' (medians; per-round ratios ' + rounds.map((round) => round.ratio).join(', ') + ')' : ''}`,
      '| route | req/s | p50 ms | p99 ms | server CPU µs/request |',
      '|---|---|---|---|---|',
      row('bare Fastify + same SQL', summary.bare),
      row('Faultline (auth, tenancy, serialiser)', summary.faultline),
      '',
      `ratio ${summary.ratio}${summary.bare.errors + summary.faultline.errors ? ` (errors: bare ${summary.bare.errors}, Faultline ${summary.faultline.errors})` : ''}`,
    ].join('\n'),
  );

  await bare.close();
  await pool.end();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
