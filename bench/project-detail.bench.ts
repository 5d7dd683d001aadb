import 'reflect-metadata';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { Client, Pool } from 'pg';
import { loadConfig } from '@faultline/platform';
import { projectDetailSql } from '@faultline/projects';
import { createApp } from '../apps/api/src/create-app';

/**
 * GET /api/0/projects/{org}/{project}/ through the whole service (auth, tenancy, serialisation)
 * against a bare Fastify route running the same SQL on the same PostgreSQL, in one process, at the
 * same concurrency. Usage: DATABASE_URL=postgres://... npm run bench
 */
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const TOKEN = 'bench-token';

async function recreateDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

/** The load comes from autocannon in its own process, so it does not share the servers' event loop. */
async function run(url: string, headers: Record<string, string> = {}, duration = DURATION): Promise<LoadResult> {
  const args = ['-c', String(CONNECTIONS), '-d', String(duration), '-j'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const { stdout } = await promisify(execFile)(join(__dirname, '..', '..', 'node_modules', '.bin', 'autocannon'), [...args, url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as LoadResult;
}

async function main(): Promise<void> {
  const databaseUrl = await recreateDatabase('faultline_bench');
  const config = loadConfig({ DATABASE_URL: databaseUrl, PORT: '9101', LOG_LEVEL: 'warn', BOOTSTRAP_TOKEN: TOKEN, BOOTSTRAP_ORG: 'acme', BOOTSTRAP_PROJECT: 'web' });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');

  const pool = new Pool({ connectionString: databaseUrl, max: config.databasePoolSize });
  const [ids] = (await pool.query(`SELECT o.id AS org, u.id AS user FROM organizations o, users u WHERE o.slug = 'acme' LIMIT 1`)).rows;
  const bare = Fastify();
  bare.get('/bare/:project', async (request) => {
    const { project } = request.params as { project: string };
    const { rows } = await pool.query(projectDetailSql(project), [ids.org, project, ids.user]);
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
  const bareResult = await run(bareUrl);
  const faultlineResult = await run(faultlineUrl, { authorization: `Bearer ${TOKEN}` });

  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    bare: { requestsPerSecond: bareResult.requests.average, p50: bareResult.latency.p50, p99: bareResult.latency.p99, errors: bareResult.errors + bareResult.non2xx },
    faultline: { requestsPerSecond: faultlineResult.requests.average, p50: faultlineResult.latency.p50, p99: faultlineResult.latency.p99, errors: faultlineResult.errors + faultlineResult.non2xx },
    ratio: Number((faultlineResult.requests.average / bareResult.requests.average).toFixed(3)),
  };
  mkdirSync(join(__dirname, '..', '..', 'bench', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results', 'project-detail.json'), JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
  console.log(`| route | req/s | p50 ms | p99 ms |\n|---|---|---|---|\n| bare Fastify + same SQL | ${summary.bare.requestsPerSecond} | ${summary.bare.p50} | ${summary.bare.p99} |\n| Faultline (auth, tenancy, serialiser) | ${summary.faultline.requestsPerSecond} | ${summary.faultline.p50} | ${summary.faultline.p99} |\n\nratio ${summary.ratio}`);

  await bare.close();
  await pool.end();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
