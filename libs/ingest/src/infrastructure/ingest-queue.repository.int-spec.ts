import { createHash } from 'node:crypto';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { CLAIM_PLAN, claimStatement, IngestQueueRepository, type OutcomeRow, type QueueRow } from './ingest-queue.repository';

const RECEIVED_AT = new Date('2026-03-10T12:00:00.000Z');

describe('ingest queue repository', () => {
  let db: TestDatabase;
  let queue: IngestQueueRepository;
  let projectId: string;
  let organizationId: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    queue = new IngestQueueRepository(db.database);
    [{ id: organizationId }] = await db.database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id::text`,
    );
    [{ id: projectId }] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
      [organizationId],
    );
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const event = (n: number): QueueRow => ({
    projectId,
    projectSlug: 'web',
    organizationId,
    eventId: n.toString(16).padStart(32, '0'),
    category: 'error',
    payload: `{"message":"event ${n}","padding":"${'x'.repeat(6000)}"}`,
  });

  async function drain(): Promise<number> {
    let taken = 0;
    for (;;) {
      const claimed = await queue.claim(500, RECEIVED_AT, 60);
      if (claimed.length === 0) return taken;
      expect(await db.database.transaction((tx) => queue.take(tx, claimed))).toHaveLength(claimed.length);
      taken += claimed.length;
    }
  }

  it('writes concurrent admissions together, with their outcomes summed per kind', async () => {
    const discarded = (quantity: number): OutcomeRow => ({
      projectId,
      organizationId,
      outcome: 'client_discard',
      reason: 'queue_overflow',
      category: 'span',
      quantity,
      timesSeen: 1,
    });
    await Promise.all(Array.from({ length: 20 }, (_, n) => queue.admit({ receivedAt: RECEIVED_AT, events: [event(n)], outcomes: [discarded(1)] })));
    const outcomes = await db.database.transaction((tx) => queue.claimOutcomes(tx, 100));
    expect(outcomes.reduce((sum, row) => sum + Number(row.quantity), 0)).toBe(20);
    expect(outcomes.reduce((sum, row) => sum + row.times_seen, 0)).toBe(20);
    expect(outcomes[0]).toMatchObject({ organization_id: organizationId, outcome: 'client_discard', category: 'span', reason: 'queue_overflow' });
    // The first admission goes alone, the rest wait for it and go together.
    expect(outcomes.length).toBeLessThan(20);
    expect(await drain()).toBe(20);
  });

  it('keeps a queued event in its row, compressed with lz4 where the server has it, never out of line in TOAST', async () => {
    // Ids and hashes make real events compress about 2.5 to 1, to more than TOAST's 2 KB threshold.
    const frames = Array.from({ length: 12 }, (_, n) => ({
      filename: `/app/node_modules/express/lib/router/layer-${n}.js`,
      function: `Layer.handle_request${n}`,
      lineno: 95 + n,
      colno: 5,
      in_app: n % 3 === 0,
      context_line: `    fn(req, res, next); // frame ${n}`,
      pre_context: ['  try {', `    const step = ${n};`],
      post_context: ['  } catch (err) {', '    next(err);'],
    }));
    const breadcrumbs = Array.from({ length: 24 }, (_, n) => ({ category: 'http', message: createHash('sha256').update(String(n)).digest('hex') }));
    const payload = JSON.stringify({
      message: 'realistic',
      exception: { values: [{ type: 'TypeError', value: 'x is undefined', stacktrace: { frames } }] },
      breadcrumbs,
    });
    expect(payload.length).toBeGreaterThan(5000);
    expect(payload.length).toBeLessThan(8000);

    await queue.admit({ receivedAt: RECEIVED_AT, events: [{ ...event(9000), payload }], outcomes: [] });
    const [queued] = await db.database.query<{ stored: number; size: number; method: string | null }>(
      `SELECT pg_column_size(payload) AS stored, octet_length(payload) AS size, pg_column_compression(payload) AS method FROM ingest.ingest_queue`,
    );
    const [{ lz4 }] = await db.database.query<{ lz4: boolean }>(
      `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    if (lz4) {
      expect(queued.method).toBe('lz4');
      expect(queued.stored).toBeLessThan(queued.size / 2);
    } else {
      expect(queued.stored).toBeGreaterThanOrEqual(queued.size);
    }
    const [{ toast }] = await db.database.query<{ toast: string }>(
      `SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = 'ingest.ingest_queue'::regclass`,
    );
    expect(await db.database.query(`SELECT 1 FROM ${toast}`)).toHaveLength(0);
    expect(await drain()).toBe(1);
  });

  it('claims through the primary key even when statistics taken on a nearly empty queue say it holds a handful of rows', async () => {
    // A backlog is worked off but for its newest events, which keep the table from shrinking; a
    // vacuum then records a few rows in many pages; a burst fills those pages again.
    const burst = async () => {
      for (let n = 0; n < 3000; n += 500)
        await queue.admit({ receivedAt: RECEIVED_AT, events: Array.from({ length: 500 }, (_, i) => event(n + i)), outcomes: [] });
    };
    await burst();
    await db.database.execute(`DELETE FROM ingest.ingest_queue WHERE id <= (SELECT max(id) - 100 FROM ingest.ingest_queue)`);
    await db.database.execute(`VACUUM ingest.ingest_queue`);
    await burst();

    const plan = (
      await db.database.transaction(async (tx) => {
        await tx.execute(CLAIM_PLAN);
        return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${claimStatement(200, RECEIVED_AT, 60)}`);
      })
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/LockRows.*\n.*Index Scan using ingest_queue_pkey/);
    expect(plan).not.toMatch(/Sort|Seq Scan|Bitmap/);
    expect(await drain()).toBe(3100);
  });

  it('leases claimed events until their lease ends, counts each claim, and claims an abandoned event alone', async () => {
    await queue.admit({ receivedAt: RECEIVED_AT, events: [event(1), event(2), event(3)], outcomes: [] });
    const first = await queue.claim(200, RECEIVED_AT, 60);
    expect(first.map((row) => [row.event_id, row.claims])).toEqual([1, 2, 3].map((n) => [event(n).eventId, 1]));
    // The claim committed: its batch never took them (its processor died), and they stay hidden for the lease.
    expect(await queue.claim(200, new Date(RECEIVED_AT.getTime() + 59_000), 60)).toEqual([]);
    expect(await queue.anyDue(db.database, new Date(RECEIVED_AT.getTime() + 59_000))).toBe(false);

    const afterLease = new Date(RECEIVED_AT.getTime() + 61_000);
    const again = await queue.claim(200, afterLease, 60);
    expect(again.map((row) => [row.event_id, row.claims])).toEqual([[event(1).eventId, 2]]);
    // A batch that comes after its lease takes only what no newer claim holds.
    const late = await db.database.transaction((tx) => queue.take(tx, first));
    expect(late.map((row) => row.event_id)).toEqual([event(2).eventId, event(3).eventId]);
    // The batch of the second claim takes its event, then its processor dies before committing.
    await expect(
      db.database.transaction(async (tx) => {
        expect(await queue.take(tx, again)).toHaveLength(1);
        throw new Error('the processor died');
      }),
    ).rejects.toThrow('the processor died');
    expect(await queue.claim(200, afterLease, 60)).toEqual([]);
    const third = await queue.claim(200, new Date(afterLease.getTime() + 61_000), 60);
    expect(third.map((row) => [row.event_id, row.claims])).toEqual([[event(1).eventId, 3]]);
    await db.database.execute(`DELETE FROM ingest.ingest_queue`);
  });
});
