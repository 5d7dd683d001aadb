import { createHash } from 'node:crypto';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { IngestQueueRepository } from './ingest-queue.repository';
import { EventProcessor } from './event-processor.worker';

const LEASE_MS = 60_000;
const eventId = (message: string) => createHash('md5').update(message).digest('hex');

/** An event that kills its processor (out of memory, aborted) ends as a dead letter, not a crash loop, and takes nothing else with it. */
describe('an event whose processor dies', () => {
  const clock = new FixedClock(new Date('2026-03-10T12:00:00.000Z'));
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp({}, { clock });
    // The test drives the batches itself.
    await api.app.get(EventProcessor).stop();
  });

  afterAll(async () => {
    await api?.close();
  });

  const messages = (rows: Array<{ payload: string }>) => rows.map((row) => (JSON.parse(row.payload) as { message: string }).message);

  /**
   * A processor that dies mid-batch: its claim committed, its batch took the events in a
   * transaction, and that transaction never commits (the connection goes with the process).
   */
  async function dieWhileProcessing(): Promise<string[]> {
    const queue = api.app.get(IngestQueueRepository);
    const claimed = await queue.claim(200, clock.now(), LEASE_MS / 1000);
    await expect(
      api.app.get(Database).transaction(async (tx) => {
        await queue.take(tx, claimed);
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    return messages(claimed);
  }

  it('is tried again alone after its lease ends, then set aside after three attempts, and no event is lost', async () => {
    const [{ projectId, public: key }] = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body;
    const envelope = [
      JSON.stringify({ event_id: 'e'.repeat(32) }),
      ...['good one', 'fatal', 'good two'].flatMap((message) => [JSON.stringify({ type: 'event' }), JSON.stringify({ event_id: eventId(message), message })]),
    ].join('\n');
    const accepted = await fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, { method: 'POST', body: envelope });
    expect(accepted.status).toBe(200);
    const processor = api.app.get(EventProcessor);

    // The first batch dies with all three.
    expect(await dieWhileProcessing()).toEqual(['good one', 'fatal', 'good two']);
    // Until the lease ends nothing is taken: no crash loop on restart.
    await processor.drain();
    const queued = () => api.app.get(Database).query<{ claims: number }>(`SELECT claims FROM ingest.ingest_queue ORDER BY id`);
    expect(await queued()).toEqual([{ claims: 1 }, { claims: 1 }, { claims: 1 }]);

    // Each is then tried alone: the first is stored, the fatal one kills its processor again (twice).
    clock.advance(LEASE_MS + 1000);
    expect(await processor.processBatch()).toBe(1);
    expect(await dieWhileProcessing()).toEqual(['fatal']);
    clock.advance(LEASE_MS + 1000);
    expect(await dieWhileProcessing()).toEqual(['fatal']);
    clock.advance(LEASE_MS + 1000);
    // Its third death is its last: it is set aside with the reason instead of being processed.
    expect(await processor.processBatch()).toBe(1);
    expect(await processor.processBatch()).toBe(1);
    expect(await processor.drain()).toBe(0);

    const stored = await api.app.get(Database).query<{ message: string }>(`SELECT data->>'message' AS message FROM issues.error_events ORDER BY 1`);
    expect(stored.map((row) => row.message)).toEqual(['good one', 'good two']);
    const letters = (await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body;
    expect(letters).toEqual([
      expect.objectContaining({ eventId: eventId('fatal'), attempts: 3, reason: 'processing did not finish in 3 attempts (the processor died)' }),
    ]);
    expect(await queued()).toEqual([]);

    // Counted by outcome: the two stored accepted, the dead letter invalid; an id sent again is a
    // duplicate, and a security report is counted in its own category.
    const again = [
      JSON.stringify({}),
      JSON.stringify({ type: 'event' }),
      JSON.stringify({ event_id: eventId('good one'), message: 'good one' }),
      JSON.stringify({ type: 'event' }),
      JSON.stringify({ event_id: eventId('csp'), type: 'csp', message: 'Blocked inline script' }),
    ].join('\n');
    expect((await fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, { method: 'POST', body: again })).status).toBe(200);
    await processor.drain();
    const outcomes = await api.app
      .get(Database)
      .query<{ category: string; outcome: string; reason: string; quantity: number }>(
        `SELECT category, outcome, reason, quantity::int FROM ingest.outcome_stats WHERE resolution = '1h' AND project_id = $1 ORDER BY category, outcome, reason`,
        [projectId],
      );
    expect(outcomes).toEqual([
      { category: 'error', outcome: 'accepted', reason: '', quantity: 2 },
      { category: 'error', outcome: 'invalid', reason: 'duplicate', quantity: 1 },
      { category: 'error', outcome: 'invalid', reason: 'internal', quantity: 1 },
      { category: 'security', outcome: 'accepted', reason: '', quantity: 1 },
    ]);
  });
});

/**
 * Concurrent batches that each bring new issues of several projects, in different orders: each
 * takes the projects' short id counters in one order, so none deadlocks with another (a deadlock's
 * victim would be tried again, but PostgreSQL counts each one).
 */
describe('concurrent batches creating issues in many projects', () => {
  const clock = new FixedClock(new Date('2026-03-10T12:00:00.000Z'));
  let api: TestApp;

  beforeAll(async () => {
    // The test drives the batches itself, with no background worker (partition days made meanwhile) beside them.
    api = await startTestApp({ ROLE: 'api' }, { clock });
  });

  afterAll(async () => {
    await api?.close();
  });

  it('stores every event without a deadlock', async () => {
    const database = api.app.get(Database);
    const [{ id: organizationId }] = await database.query<{ id: string }>(`SELECT id::text AS id FROM identity.organizations WHERE slug = 'acme'`);
    const projects = await database.query<{ id: string; slug: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) SELECT $1, 'p' || n, 'P' || n FROM generate_series(1, 6) n RETURNING id::text AS id, slug`,
      [organizationId],
    );
    const deadlocks = async () =>
      Number((await database.query<{ n: string }>(`SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`))[0].n);
    const before = await deadlocks();
    const batches = 4;
    const perBatch = 200; // the processor's batch size
    // Batch b's events name the projects in a rotated order, each event a new issue.
    const rows = Array.from({ length: batches * perBatch }, (_, n) => {
      const batch = Math.floor(n / perBatch);
      const project = projects[(n + batch * 2) % projects.length];
      return { project, eventId: eventId(`e${n}`), payload: JSON.stringify({ message: `new issue ${n}`, fingerprint: [`f${n}`], level: 'error' }) };
    });
    await database.execute(
      `INSERT INTO ingest.ingest_queue (project_id, project_slug, organization_id, event_id, category, received_at, available_at, payload)
       SELECT p, s, $1, e, 'error', $2, $2, b FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[]) AS q (p, s, e, b)`,
      [
        organizationId,
        clock.now(),
        rows.map((row) => row.project.id),
        rows.map((row) => row.project.slug),
        rows.map((row) => row.eventId),
        rows.map((row) => row.payload),
      ],
    );
    const processor = api.app.get(EventProcessor);
    const processed = await Promise.all(Array.from({ length: batches }, () => processor.processBatch()));
    expect(processed.reduce((sum, n) => sum + n, 0)).toBe(rows.length);
    const [stored] = await database.query<{ events: number; issues: number; letters: number }>(
      `SELECT (SELECT count(*)::int FROM issues.error_events) AS events, (SELECT count(*)::int FROM issues.issues) AS issues,
              (SELECT count(*)::int FROM ingest.ingest_dead_letters) AS letters`,
    );
    expect(stored).toEqual({ events: rows.length, issues: rows.length, letters: 0 });
    // Statistics reach the shared view once the backends are idle.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await deadlocks()).toBe(before);
  });
});
