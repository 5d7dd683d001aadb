import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { QueuedDelivery } from '../contracts/webhook-targets';
import { type AttemptResult, DeliveriesRepository } from './deliveries.repository';

const delivery = (cause: string, targetId = 'hook-1', targetKind = 'service_hook'): QueuedDelivery => ({
  guid: `guid-${cause}-${targetId}`,
  targetKind,
  targetId,
  cause,
  eventType: 'event.created',
  body: `{"cause":"${cause}"}`,
});

const result = (deliveryId: string, status: AttemptResult['status'], nextAttemptAt?: Date): AttemptResult => ({
  deliveryId,
  status,
  nextAttemptAt,
  attemptedAt: new Date(),
  durationMs: 3,
  statusCode: status === 'delivered' ? 200 : 500,
  error: status === 'delivered' ? null : 'HTTP 500',
  requestHeaders: { 'webhook-id': 'x' },
  responseHeaders: {},
  responseBody: 'ok',
});

describe('deliveries repository: the queue holds exactly the pending deliveries', () => {
  let db: TestDatabase;
  let deliveries: DeliveriesRepository;

  beforeAll(async () => {
    db = await openTestDatabase();
    deliveries = new DeliveriesRepository(db.database);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  beforeEach(async () => {
    await db.database.execute(`DELETE FROM webhooks.webhook_delivery_queue`);
    await db.database.execute(`DELETE FROM webhooks.webhook_deliveries`);
  });

  const claimAll = () => deliveries.claim(100, [], [], 100, new Map(), 30);

  /** Pending deliveries without a queue row, and queue rows of deliveries that are not pending. */
  async function strays(): Promise<number> {
    const [{ n }] = await db.database.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM webhooks.webhook_deliveries d WHERE d.status = 'pending' AND NOT EXISTS (SELECT 1 FROM webhooks.webhook_delivery_queue q WHERE q.delivery_id = d.id))
            + (SELECT count(*) FROM webhooks.webhook_delivery_queue q WHERE NOT EXISTS (SELECT 1 FROM webhooks.webhook_deliveries d WHERE d.id = q.delivery_id AND d.status = 'pending')) AS n`,
    );
    return Number(n);
  }

  it('queues new deliveries once per cause, and a claim leases them until handed back or finished', async () => {
    await db.database.transaction((tx) => deliveries.insert(tx, [delivery('a'), delivery('b'), delivery('c')]));
    expect(await db.database.transaction((tx) => deliveries.insert(tx, [delivery('a')]))).toBe(0);

    const claimed = await claimAll();
    expect(claimed.map((row) => [row.body, row.attempts])).toEqual([
      ['{"cause":"a"}', 1],
      ['{"cause":"b"}', 1],
      ['{"cause":"c"}', 1],
    ]);
    expect(await claimAll()).toEqual([]);

    await deliveries.release([claimed[2].id]);
    await deliveries.complete([result(claimed[0].id, 'delivered'), result(claimed[1].id, 'pending', new Date(Date.now() + 60_000))]);
    expect(await strays()).toBe(0);

    const again = await claimAll();
    expect(again.map((row) => [row.id, row.attempts])).toEqual([[claimed[2].id, 1]]);
    const rows = await db.database.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM webhooks.webhook_deliveries ORDER BY id`);
    expect(rows).toEqual([
      { status: 'delivered', attempts: 1 },
      { status: 'pending', attempts: 1 },
      { status: 'pending', attempts: 0 },
    ]);
    const [{ n }] = await db.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.webhook_attempts`);
    expect(n).toBe(2);
  });

  it('dequeues what fails, is deleted with its target, and queues a redelivery again', async () => {
    await db.database.transaction((tx) => deliveries.insert(tx, [delivery('a'), delivery('b'), delivery('c', 'hook-2')]));
    const [first] = await deliveries.claim(1, [], [], 100, new Map(), 30);
    await deliveries.complete([result(first.id, 'delivered')]);

    await db.database.transaction((tx) => deliveries.failPending(tx, 'service_hook', ['hook-1'], 'the hook is disabled'));
    expect(await strays()).toBe(0);
    await db.database.transaction((tx) => deliveries.redeliver(tx, first.id));
    expect((await claimAll()).map((row) => row.id).sort()).toEqual(
      [first.id, (await deliveries.find(db.database, 'service_hook', 'hook-2', 'guid-c-hook-2'))?.id].sort(),
    );

    await db.database.transaction((tx) => deliveries.deleteForTarget(tx, 'service_hook', 'hook-2'));
    expect(await strays()).toBe(0);
    const [{ n }] = await db.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.webhook_delivery_queue`);
    expect(n).toBe(1);
  });

  it("leases each delivery for its own kind's time, and a kind it was not told of for the default", async () => {
    await db.database.transaction((tx) => deliveries.insert(tx, [delivery('a'), delivery('b', 'ops@example.com', 'email'), delivery('c', 'x', 'unknown')]));
    await deliveries.claim(
      100,
      [],
      [],
      100,
      new Map([
        ['service_hook', 20],
        ['email', 70],
      ]),
      90,
    );
    const leases = await db.database.query<{ kind: string; seconds: number }>(
      `SELECT d.target_kind AS kind, round(extract(epoch FROM q.due_at - now()))::int AS seconds
       FROM webhooks.webhook_delivery_queue q JOIN webhooks.webhook_deliveries d ON d.id = q.delivery_id ORDER BY d.id`,
    );
    expect(leases).toEqual([
      { kind: 'service_hook', seconds: 20 },
      { kind: 'email', seconds: 70 },
      { kind: 'unknown', seconds: 90 },
    ]);
  });
});
