import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Agent, request } from 'undici';
import { domainEvent } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { IngestEventTypes, type ErrorEventProcessedData } from '@faultline/ingest';
import { Database, loadConfig } from '@faultline/platform';
import { createApp } from '../apps/api/src/create-app';
import { coresUsed, cpuSnapshot, environment, percentile, recreateDatabase, round, saveResults, sleep } from './bench-support';

/**
 * Webhook delivery: the whole pipeline (a domain event recorded, its delivery row queued in the
 * same transaction, claimed, signed, POSTed, the attempt logged) against a bare undici POST loop,
 * both to the same receiver process with the same concurrency.
 *
 * Usage: npm run bench:webhooks
 * Env: DATABASE_URL (server to create faultline_bench_webhooks on), BENCH_DELIVERIES (20000),
 *      BENCH_CONCURRENCY (32), BENCH_RECORDERS (4 transactions recording at once), BENCH_RATE
 *      (500/s) and BENCH_DURATION (20 s) for the latency run, BENCH_RESULTS_DIR.
 */
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
/** Transactions recording events at once, as several ingest batches do. */
const RECORDERS = Number(process.env.BENCH_RECORDERS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const PORT = 9211;
const DATABASE = 'faultline_bench_webhooks';

/** The receiver: its own process, answers 200 at once, remembers when each event arrived. */
const RECEIVER = `
const http = require('node:http');
let receipts = [];
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    res.writeHead(200).end('ok');
    try { receipts.push([JSON.parse(Buffer.concat(chunks)).event.event_id, at]); } catch { receipts.push(['?', at]); }
  });
}).listen(0, '127.0.0.1', function () { process.send({ port: this.address().port }); });
process.on('message', () => { process.send({ receipts }); receipts = []; });
`;

function startReceiver(): Promise<{ child: ChildProcess; port: number; collect: () => Promise<Array<[string, number]>> }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => {
    child.once('message', (message: { port: number }) => {
      const collect = () =>
        new Promise<Array<[string, number]>>((done) => {
          child.once('message', (reply: { receipts: Array<[string, number]> }) => done(reply.receipts));
          child.send('report');
        });
      resolve({ child, port: message.port, collect });
    });
  });
}

const now = () => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const receiver = await startReceiver();
  const databaseUrl = await recreateDatabase(DATABASE);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'all',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: 'bench-token',
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_TARGET_CONCURRENCY: String(CONCURRENCY),
  });
  const app = await createApp(config);
  await app.listen(PORT, '127.0.0.1');
  const database = app.get(Database);
  const recorder = app.get(EventRecorder);
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });

  const hook = await fetch(`http://127.0.0.1:${PORT}/api/0/projects/acme/web/hooks/`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hook`, events: ['event.created'] }),
  });
  if (hook.status !== 201) throw new Error(`creating the hook: ${hook.status} ${await hook.text()}`);
  const [{ id: projectId }] = (await pool.query<{ id: string }>(`SELECT id FROM projects.projects WHERE slug = 'web'`)).rows;
  const [{ id: organizationId }] = (await pool.query<{ id: string }>(`SELECT id FROM identity.organizations WHERE slug = 'acme'`)).rows;
  const [{ id: issueId }] = (
    await pool.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen)
       VALUES ($1, 'bench', 'WEB-1', 'TypeError: x', 'app in handler', 'error', 'node', 'unresolved', 'new', now(), now()) RETURNING id`,
      [projectId],
    )
  ).rows;

  const processed = (eventId: string) =>
    domainEvent(IngestEventTypes.ErrorEventProcessed, {
      projectId,
      projectSlug: 'web',
      organizationId,
      issueId,
      isNewIssue: false,
      eventId,
      title: 'TypeError: Cannot read properties of undefined',
      culprit: 'app/checkout in pay',
      message: 'TypeError: Cannot read properties of undefined (reading "id")',
      level: 'error',
      platform: 'node',
      datetime: new Date().toISOString(),
      release: 'shop@1.2.3',
      environment: 'production',
      tags: [
        ['environment', 'production'],
        ['release', 'shop@1.2.3'],
        ['region', 'eu-west-1'],
        ['feature', 'checkout'],
      ],
    } satisfies ErrorEventProcessedData);

  /** Records `count` processed-error events in one transaction; answers their event ids and commit time. */
  async function record(count: number): Promise<{ ids: string[]; committedAt: number }> {
    const ids = Array.from({ length: count }, () => randomUUID().replace(/-/g, ''));
    await database.transaction((tx) =>
      recorder.recordNewStreams(
        tx,
        ids.map((id) => ({ streamId: `bench-${id}`, streamType: 'error-event', event: processed(id) })),
      ),
    );
    return { ids, committedAt: now() };
  }
  /** Every delivery recorded so far is logged as delivered (the receiver answers 200): none is queued. */
  async function untilDelivered(): Promise<void> {
    while ((await pool.query(`SELECT EXISTS (SELECT 1 FROM webhooks.webhook_delivery_queue) AS queued`)).rows[0].queued) await sleep(20);
  }

  // Warm-up: JIT, connections, the keep-alive sockets to the receiver.
  for (let i = 0; i < 20; i++) await record(50);
  await untilDelivered();
  await receiver.collect();

  // 1. Bare undici POST loop: the same body size and concurrency, to the same receiver.
  const sampleBody = JSON.stringify({
    id: 'x'.repeat(32),
    project: 'web',
    project_name: 'Web',
    culprit: 'app/checkout in pay',
    url: 'http://127.0.0.1:9000/organizations/acme/issues/1/',
    message: 'TypeError: Cannot read properties of undefined (reading "id")',
    triggering_rules: [],
    event: {
      event_id: '0'.repeat(32),
      level: 'error',
      tags: [
        ['environment', 'production'],
        ['release', 'shop@1.2.3'],
        ['region', 'eu-west-1'],
        ['feature', 'checkout'],
      ],
      platform: 'node',
      datetime: new Date().toISOString(),
    },
  });
  const agent = new Agent({ connections: CONCURRENCY });
  let sent = 0;
  let cpuBefore = cpuSnapshot(DATABASE);
  let started = now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < DELIVERIES) {
        sent++;
        const response = await request(`http://127.0.0.1:${receiver.port}/bare`, {
          method: 'POST',
          body: sampleBody,
          headers: { 'content-type': 'application/json' },
          dispatcher: agent,
        });
        await response.body.text();
      }
    }),
  );
  const bareSeconds = (now() - started) / 1000;
  const bareCpu = coresUsed(cpuBefore, cpuSnapshot(DATABASE));
  await agent.close();
  await receiver.collect();

  // 2. The pipeline, as fast as it goes: events recorded in transactions of 100, RECORDERS at once, until every delivery is logged as delivered.
  cpuBefore = cpuSnapshot(DATABASE);
  started = now();
  let queued = 0;
  await Promise.all(
    Array.from({ length: RECORDERS }, async () => {
      while (queued < DELIVERIES) {
        const count = Math.min(100, DELIVERIES - queued);
        queued += count;
        await record(count);
      }
    }),
  );
  const recordedSeconds = (now() - started) / 1000;
  await untilDelivered();
  const pipelineSeconds = (now() - started) / 1000;
  const pipelineCpu = coresUsed(cpuBefore, cpuSnapshot(DATABASE));
  await receiver.collect();

  // 3. Latency at a steady rate: a transaction every 10 ms, commit to receipt per event.
  const committed = new Map<string, number>();
  const perTick = Math.max(1, Math.round(RATE / 100));
  const ticks = DURATION * 100;
  started = now();
  const inFlight: Array<Promise<void>> = [];
  for (let tick = 0; tick < ticks; tick++) {
    inFlight.push(record(perTick).then(({ ids, committedAt }) => ids.forEach((id) => committed.set(id, committedAt))));
    await sleep(Math.max(0, started + (tick + 1) * 10 - now()));
  }
  await Promise.all(inFlight);
  await untilDelivered();
  const steadySeconds = (now() - started) / 1000;
  await sleep(200);
  const receipts = await receiver.collect();
  const latencies = receipts.filter(([id]) => committed.has(id)).map(([id, at]) => at - (committed.get(id) as number));

  const [{ attempts }] = (await pool.query<{ attempts: string }>(`SELECT count(*) AS attempts FROM webhooks.webhook_attempts`)).rows;
  const summary = {
    ...(await environment(databaseUrl)),
    deliveries: DELIVERIES,
    concurrency: CONCURRENCY,
    bare: { perSecond: round(DELIVERIES / bareSeconds), seconds: round(bareSeconds, 2), cores: bareCpu },
    pipeline: {
      perSecond: round(DELIVERIES / pipelineSeconds),
      seconds: round(pipelineSeconds, 2),
      recordedPerSecond: round(DELIVERIES / recordedSeconds),
      cores: pipelineCpu,
    },
    ratio: round(DELIVERIES / pipelineSeconds / (DELIVERIES / bareSeconds), 3),
    steady: {
      offeredPerSecond: perTick * 100,
      seconds: round(steadySeconds, 1),
      delivered: latencies.length,
      commitToReceiptMs: {
        p50: round(percentile(latencies, 50)),
        p90: round(percentile(latencies, 90)),
        p99: round(percentile(latencies, 99)),
        max: round(Math.max(...latencies)),
      },
    },
    attemptsLogged: Number(attempts),
  };
  saveResults(`webhooks-c${CONCURRENCY}.json`, summary);
  console.log(JSON.stringify(summary, null, 2));
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  console.log(
    [
      `${DELIVERIES} deliveries, concurrency ${CONCURRENCY}, one receiver process on loopback`,
      '| measure | value | target |',
      '|---|---|---|',
      `| bare undici POST loop | ${summary.bare.perSecond} /s | |`,
      `| pipeline: recorded, queued, claimed, signed, POSTed, logged | ${summary.pipeline.perSecond} /s (events recorded at ${summary.pipeline.recordedPerSecond} /s) | |`,
      `| ratio | ${summary.ratio} | ≥ 0.5: ${verdict(summary.ratio >= 0.5)} |`,
      `| commit to receipt at ${summary.steady.offeredPerSecond}/s, ${latencies.length} deliveries: p50 / p90 / p99 / max | ${summary.steady.commitToReceiptMs.p50} / ${summary.steady.commitToReceiptMs.p90} / ${summary.steady.commitToReceiptMs.p99} / ${summary.steady.commitToReceiptMs.max} ms | p50 < 25, p99 < 150: ${verdict(summary.steady.commitToReceiptMs.p50 < 25 && summary.steady.commitToReceiptMs.p99 < 150)} |`,
      `| cores, pipeline run: this process / PostgreSQL / other (bare run: this process) | ${pipelineCpu.server} / ${pipelineCpu.postgres} / ${pipelineCpu.other} (${bareCpu.server}) | |`,
    ].join('\n'),
  );

  await pool.end();
  await app.close();
  receiver.child.kill();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
