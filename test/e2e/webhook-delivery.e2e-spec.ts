import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'pg';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build', String(process.pid));
const DELIVERIES = 5000;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The delivery engine across processes (PostgreSQL only): real worker processes of the compiled
 * service, killed with SIGKILL mid-run, and two of them sharing one queue.
 */
describe('webhook delivery across worker processes', () => {
  let api: TestApp;
  let pool: Pool;
  const receiver = new WebhookReceiver();
  let hookId: string;
  const workers = new Set<ChildProcess>();

  beforeAll(async () => {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'swc'), ['apps', 'libs', 'migrations', '-d', BUILD, '--quiet'], { cwd: ROOT });
    // Slow enough that many deliveries are in flight when the worker dies.
    receiver.on('/crash', (_attempt, _request, response) => setTimeout(() => response.writeHead(200).end('ok'), 5));
    await receiver.start();
    api = await startTestApp({ ROLE: 'api' });
    pool = new Pool({ connectionString: api.databaseUrl, max: 2 });
    const hook = await api.request('POST', '/api/0/projects/acme/web/hooks/', { body: { url: `${receiver.url}/crash`, events: ['event.created'] } });
    expect(hook.status).toBe(201);
    hookId = hook.body.id;
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await pool?.end();
    await api?.close();
    await receiver.close();
    rmSync(BUILD, { recursive: true, force: true });
  });

  async function queue(cause: string): Promise<void> {
    await pool.query(
      `WITH queued AS (
         INSERT INTO webhooks.webhook_deliveries (guid, target_kind, target_id, cause, event_type, body)
         SELECT md5($2 || n), 'service_hook', $1, $2 || n, 'event.created', json_build_object('n', n)::text
         FROM generate_series(1, $3) AS n
         RETURNING id, target_kind, target_id
       )
       INSERT INTO webhooks.webhook_delivery_queue (delivery_id, target_kind, target_id) SELECT id, target_kind, target_id FROM queued`,
      [hookId, cause, DELIVERIES],
    );
  }

  async function startWorker(): Promise<ChildProcess> {
    const worker = spawn(process.execPath, [join(BUILD, 'apps', 'api', 'src', 'main.js'), '--role', 'worker'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: api.databaseUrl,
        PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_CONCURRENCY: '32',
        WEBHOOK_TARGET_CONCURRENCY: '32',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.add(worker);
    worker.once('exit', () => workers.delete(worker));
    return worker;
  }

  async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const delivered = async (cause: string) =>
    Number((await pool.query(`SELECT count(*) AS n FROM webhooks.webhook_deliveries WHERE cause LIKE $1 || '%' AND status = 'delivered'`, [cause])).rows[0].n);

  /** Requests received, and distinct deliveries among them (by webhook-id). */
  function receipts(): { total: number; unique: number } {
    const ids = receiver.to('/crash').map((request) => String(request.headers['webhook-id']));
    return { total: ids.length, unique: new Set(ids).size };
  }

  it('delivers everything at least once after a kill -9 mid-run, duplicating at most what was in flight', async () => {
    await queue('crash-');
    const first = await startWorker();
    await until(() => receiver.to('/crash').length >= 1500, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    // Claimed and not recorded when it died: the only deliveries that may arrive twice.
    const inFlight = Number((await pool.query(`SELECT count(*) AS n FROM webhooks.webhook_delivery_queue WHERE claims > 0 AND due_at > now()`)).rows[0].n);
    const receivedAtKill = receiver.to('/crash').length;
    expect(receivedAtKill).toBeLessThan(DELIVERIES);

    await startWorker();
    await until(async () => (await delivered('crash-')) === DELIVERIES, 90_000);
    const { total, unique } = receipts();
    expect(unique).toBe(DELIVERIES);
    const duplicates = total - unique;
    console.log(`kill -9 after ${receivedAtKill} receipts: ${inFlight} deliveries in flight, ${duplicates} duplicates`);
    expect(duplicates).toBeLessThanOrEqual(inFlight);
    for (const worker of workers) worker.kill('SIGTERM');
    await until(() => workers.size === 0, 20_000);
  }, 180_000);

  it('stops on SIGTERM without losing or repeating a delivery: requests in flight finish, claimed ones are handed back', async () => {
    receiver.received.length = 0;
    await queue('graceful-');
    const worker = await startWorker();
    await until(() => receiver.to('/crash').length >= 500, 60_000);
    worker.kill('SIGTERM');
    const code = await new Promise((resolve) => worker.once('exit', resolve));
    expect(code).toBe(0);
    const leased = Number((await pool.query(`SELECT count(*) AS n FROM webhooks.webhook_delivery_queue WHERE due_at > now()`)).rows[0].n);
    expect(leased).toBe(0);
    await startWorker();
    await until(async () => (await delivered('graceful-')) === DELIVERIES, 90_000);
    const { total, unique } = receipts();
    expect(unique).toBe(DELIVERIES);
    expect(total).toBe(DELIVERIES);
    for (const running of workers) running.kill('SIGTERM');
    await until(() => workers.size === 0, 20_000);
  }, 180_000);

  it('never sends a delivery twice with two workers sharing the queue', async () => {
    receiver.received.length = 0;
    await queue('shared-');
    await Promise.all([startWorker(), startWorker()]);
    await until(async () => (await delivered('shared-')) === DELIVERIES, 90_000);
    const { total, unique } = receipts();
    expect(unique).toBe(DELIVERIES);
    expect(total).toBe(DELIVERIES);
    for (const worker of workers) worker.kill('SIGTERM');
    await until(() => workers.size === 0, 20_000);
  }, 180_000);
});
