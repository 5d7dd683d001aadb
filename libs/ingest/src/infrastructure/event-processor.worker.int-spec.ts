import { createHash } from 'node:crypto';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { IngestQueueRepository } from './ingest-queue.repository';
import { EventProcessor } from './event-processor.worker';

const LEASE_MS = 60_000;

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

  const eventId = (message: string) => createHash('md5').update(message).digest('hex');
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
