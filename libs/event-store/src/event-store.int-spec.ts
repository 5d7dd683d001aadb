import { ConcurrencyError, domainEvent, type RecordedEvent } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { EventRecorder, EventStore, SubscriptionRunner, SubscriptionRunnerFactory, type SubscriptionHandler, type SubscriptionRunnerOptions } from '.';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const happened = (n: number) => domainEvent('test.Happened', { n });

describe('EventStore', () => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await openTestDatabase();
    store = new EventStore(db.database);
    // The effect of the test subscribers: handling an event twice would violate the primary key.
    await db.database.execute('CREATE TABLE test_handled (subscriber text NOT NULL, event_id uuid NOT NULL, PRIMARY KEY (subscriber, event_id))');
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const streamVersions = async (streamId: string) => (await store.readStream(db.database, streamId)).map((event) => event.version);

  describe('append and readStream', () => {
    it('records events with consecutive versions and reads them back in order', async () => {
      const recorded = await db.database.transaction((tx) =>
        store.append(tx, 'order-1', 'test.Order', 'no_stream', [happened(1), happened(2)], {
          actorType: 'user',
          actorId: 'u1',
        }),
      );

      expect(recorded.map((event) => event.version)).toEqual([1, 2]);
      const [first, second] = recorded;
      expect(first).toEqual({
        globalPosition: expect.stringMatching(/^\d+$/),
        streamId: 'order-1',
        streamType: 'test.Order',
        version: 1,
        eventId: expect.stringMatching(UUID),
        type: 'test.Happened',
        schemaVersion: 1,
        data: { n: 1 },
        metadata: { actorType: 'user', actorId: 'u1' },
        recordedAt: expect.stringMatching(ISO_MS),
      });
      expect(BigInt(second.globalPosition)).toBeGreaterThan(BigInt(first.globalPosition));

      const next = await store.append(db.database, 'order-1', 'test.Order', 2, [domainEvent('test.Shipped', { at: 'dock' }, 3)]);
      expect(next).toMatchObject([{ version: 3, type: 'test.Shipped', schemaVersion: 3, data: { at: 'dock' } }]);

      expect(await store.readStream(db.database, 'order-1')).toEqual([...recorded, ...next]);
      expect((await store.readStream(db.database, 'order-1', 1)).map((event) => event.version)).toEqual([2, 3]);
      expect(await store.readStream(db.database, 'no-such-stream')).toEqual([]);
    });

    it('treats 0 as no_stream and appends nothing for an empty list', async () => {
      expect(await store.append(db.database, 'zero-1', 'test.Zero', 0, [happened(1)])).toHaveLength(1);
      expect(await store.append(db.database, 'zero-1', 'test.Zero', 1, [])).toEqual([]);
      expect(await streamVersions('zero-1')).toEqual([1]);
    });

    it('appends after the current version with any', async () => {
      await store.append(db.database, 'any-1', 'test.Any', 'any', [happened(1)]);
      await store.append(db.database, 'any-1', 'test.Any', 'any', [happened(2), happened(3)]);
      expect(await streamVersions('any-1')).toEqual([1, 2, 3]);
    });

    it('refuses events without an explicit type or with a bad expected version', async () => {
      await expect(store.append(db.database, 's', 't', 0, [{ type: '', schemaVersion: 1, data: {} }])).rejects.toThrow(TypeError);
      await expect(store.append(db.database, 's', 't', -1, [happened(1)])).rejects.toThrow(RangeError);
      await expect(store.append(db.database, 's', 't', 1.5, [happened(1)])).rejects.toThrow(RangeError);
    });
  });

  describe('optimistic concurrency', () => {
    beforeAll(async () => {
      await store.append(db.database, 'conflict-1', 'test.Conflict', 'no_stream', [happened(1), happened(2), happened(3)]);
    });

    it('raises ConcurrencyError on a stale expected version and the unit writes nothing', async () => {
      const attempt = db.database.transaction(async (tx) => {
        await tx.execute(`INSERT INTO test_handled (event_id, subscriber) VALUES (gen_random_uuid(), 'stale-unit')`);
        return store.append(tx, 'conflict-1', 'test.Conflict', 1, [happened(99)]);
      });

      await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(attempt).rejects.toMatchObject({ code: 'concurrency', streamId: 'conflict-1', expectedVersion: 1 });
      expect(await streamVersions('conflict-1')).toEqual([1, 2, 3]);
      expect(await db.database.query(`SELECT 1 FROM test_handled WHERE subscriber = 'stale-unit'`)).toEqual([]);
    });

    it("conflicts on 'no_stream' when the stream exists", async () => {
      await expect(store.append(db.database, 'conflict-1', 'test.Conflict', 'no_stream', [happened(0)])).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await streamVersions('conflict-1')).toEqual([1, 2, 3]);
    });

    it('conflicts on an expected version the stream never reached, leaving no gap', async () => {
      await expect(store.append(db.database, 'conflict-1', 'test.Conflict', 7, [happened(8)])).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(store.append(db.database, 'conflict-new', 'test.Conflict', 2, [happened(3)])).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await streamVersions('conflict-1')).toEqual([1, 2, 3]);
      expect(await streamVersions('conflict-new')).toEqual([]);
    });

    it('lets Database.transaction rerun the unit after a conflict', async () => {
      let attempts = 0;
      await db.database.transaction(
        async (tx) => {
          attempts += 1;
          // The first attempt decides on a stale view; the rerun reloads the stream.
          const expected = attempts === 1 ? 2 : (await store.readStream(tx, 'conflict-1')).length;
          await store.append(tx, 'conflict-1', 'test.Conflict', expected, [happened(4)]);
        },
        { retries: 1 },
      );
      expect(attempts).toBe(2);
      expect(await streamVersions('conflict-1')).toEqual([1, 2, 3, 4]);
    });

    it('never updates or deletes a recorded event', async () => {
      await expect(db.database.execute(`UPDATE event_store.events SET data = '{}' WHERE stream_id = 'conflict-1'`)).rejects.toThrow(/append-only/);
      await expect(db.database.execute(`DELETE FROM event_store.events WHERE stream_id = 'conflict-1'`)).rejects.toThrow(/append-only/);
      expect(await streamVersions('conflict-1')).toEqual([1, 2, 3, 4]);
    });
  });

  describe('readAll', () => {
    let recorded: RecordedEvent[];

    beforeAll(async () => {
      recorded = [
        ...(await store.append(db.database, 'feed-a', 'test.FeedA', 'no_stream', [happened(1), domainEvent('test.Other', {})])),
        ...(await store.append(db.database, 'feed-b', 'test.FeedB', 'no_stream', [happened(2)])),
        ...(await store.append(db.database, 'feed-a', 'test.FeedA', 2, [happened(3)])),
      ];
    });

    const feed = { streamTypes: ['test.FeedA', 'test.FeedB'] };
    const ids = (events: RecordedEvent[]) => events.map((event) => event.eventId);

    it('reads committed events in order after a position, in pages', async () => {
      const all = await store.readAll(db.database, '0', 100, feed);
      expect(all).toEqual(recorded);

      const firstPage = await store.readAll(db.database, '0', 3, feed);
      const secondPage = await store.readAll(db.database, firstPage[2].globalPosition, 3, feed);
      expect(ids([...firstPage, ...secondPage])).toEqual(ids(recorded));
      expect(await store.readAll(db.database, recorded[3].globalPosition, 3, feed)).toEqual([]);
    });

    it('accepts a bigint position', async () => {
      expect(ids(await store.readAll(db.database, BigInt(recorded[0].globalPosition), 100, feed))).toEqual(ids(recorded.slice(1)));
    });

    it('filters by stream type and by event type', async () => {
      expect(ids(await store.readAll(db.database, '0', 100, { streamTypes: ['test.FeedB'] }))).toEqual([recorded[2].eventId]);
      expect(ids(await store.readAll(db.database, '0', 100, { ...feed, eventTypes: ['test.Other'] }))).toEqual([recorded[1].eventId]);
      expect(await store.readAll(db.database, '0', 100, { streamTypes: [] })).toEqual([]);
    });

    it('rejects a malformed position or limit', async () => {
      await expect(store.readAll(db.database, '-1', 10)).rejects.toThrow(RangeError);
      await expect(store.readAll(db.database, '0', 0)).rejects.toThrow(RangeError);
    });
  });

  describe('checkpoints', () => {
    it('reads 0 for an unknown subscriber and the last saved position otherwise', async () => {
      expect(await store.readCheckpoint(db.database, 'cp-test')).toBe('0');
      await db.database.transaction((tx) => store.saveCheckpoint(tx, 'cp-test', '41'));
      await db.database.transaction((tx) => store.saveCheckpoint(tx, 'cp-test', 42n));
      expect(await store.readCheckpoint(db.database, 'cp-test')).toBe('42');
    });

    it('does not keep a checkpoint saved in a transaction that rolls back', async () => {
      await expect(
        db.database.transaction(async (tx) => {
          await store.saveCheckpoint(tx, 'cp-rollback', '7');
          throw new Error('effect failed');
        }),
      ).rejects.toThrow('effect failed');
      expect(await store.readCheckpoint(db.database, 'cp-rollback')).toBe('0');
    });
  });

  describe('SubscriptionRunner', () => {
    let seq = 0;

    /** Each test subscribes to its own stream type, so it sees only its own events. */
    const appendRunnerEvents = async (streamType: string, count: number) => {
      const streamId = `runner-${++seq}`;
      return db.database.transaction((tx) =>
        store.append(
          tx,
          streamId,
          streamType,
          'no_stream',
          Array.from({ length: count }, (_, n) => happened(n)),
        ),
      );
    };

    /** A handler whose effect is a row per event, written in the batch's transaction. */
    const recordingHandler = (subscriber: string, seen: RecordedEvent[]) => async (events: RecordedEvent[], tx: Transaction) => {
      seen.push(...events);
      for (const event of events) {
        await tx.execute('INSERT INTO test_handled (event_id, subscriber) VALUES ($1, $2)', [event.eventId, subscriber]);
      }
    };

    const handledBy = async (subscriber: string) =>
      (await db.database.query<{ count: string }>('SELECT count(*) AS count FROM test_handled WHERE subscriber = $1', [subscriber]))[0].count;

    const runner = (name: string, handle: SubscriptionHandler, extra: Partial<SubscriptionRunnerOptions> = {}) =>
      new SubscriptionRunner({
        name,
        database: db.database,
        eventStore: store,
        handle,
        filter: { streamTypes: [`test.${name}`] },
        batchSize: 2,
        ...extra,
      });

    it('handles every event once, in batches, and resumes from its checkpoint after a restart', async () => {
      const first = [...(await appendRunnerEvents('test.sub-resume', 3)), ...(await appendRunnerEvents('test.sub-resume', 2))];
      const seen: RecordedEvent[] = [];

      expect(await runner('sub-resume', recordingHandler('sub-resume', seen)).catchUp()).toBe(5);
      expect(seen.map((event) => event.eventId)).toEqual(first.map((event) => event.eventId));
      expect(await store.readCheckpoint(db.database, 'sub-resume')).toBe(first[4].globalPosition);

      // A new instance under the same name is a restarted process: it continues after the checkpoint.
      const later = await appendRunnerEvents('test.sub-resume', 3);
      const afterRestart: RecordedEvent[] = [];
      const restarted = runner('sub-resume', recordingHandler('sub-resume', afterRestart));
      expect(await restarted.catchUp()).toBe(3);
      expect(afterRestart.map((event) => event.eventId)).toEqual(later.map((event) => event.eventId));
      expect(await restarted.catchUp()).toBe(0);
      expect(await handledBy('sub-resume')).toBe('8');
    });

    it('does not advance the checkpoint when the handler fails', async () => {
      await appendRunnerEvents('test.sub-fail', 2);
      const good = runner('sub-fail', recordingHandler('sub-fail', []));
      await good.catchUp();
      const checkpoint = await store.readCheckpoint(db.database, 'sub-fail');

      const pending = await appendRunnerEvents('test.sub-fail', 2);
      const failing = runner('sub-fail', async (events, tx) => {
        await recordingHandler('sub-fail', [])(events, tx);
        throw new Error('handler broke');
      });
      await expect(failing.catchUp()).rejects.toThrow('handler broke');
      expect(await store.readCheckpoint(db.database, 'sub-fail')).toBe(checkpoint);
      expect(await handledBy('sub-fail')).toBe('2');

      const retried: RecordedEvent[] = [];
      expect(await runner('sub-fail', recordingHandler('sub-fail', retried)).catchUp()).toBe(2);
      expect(retried.map((event) => event.eventId)).toEqual(pending.map((event) => event.eventId));
      expect(await store.readCheckpoint(db.database, 'sub-fail')).toBe(pending[1].globalPosition);
    });

    it('runs in the background: wakes on demand, backs off after a failure, and stops after the batch in hand', async () => {
      const warnings: string[] = [];
      const seen: RecordedEvent[] = [];
      let failuresLeft = 1;
      let onSeen: () => void = () => undefined;
      const background = runner(
        'sub-background',
        async (events, tx) => {
          if (failuresLeft-- > 0) throw new Error('transient');
          await recordingHandler('sub-background', seen)(events, tx);
          onSeen();
        },
        { batchSize: 100, idleDelayMs: 60_000, retryDelayMs: 5, logger: { warn: (message) => warnings.push(message) } },
      );
      const seenCount = (count: number) =>
        new Promise<void>((resolve) => {
          onSeen = () => seen.length >= count && resolve();
          onSeen();
        });

      const existing = await appendRunnerEvents('test.sub-background', 2);
      const firstBatch = seenCount(existing.length);
      background.start();
      let more: RecordedEvent[];
      try {
        await firstBatch; // the first attempt failed and was retried after the short back-off
        expect(warnings).toEqual([expect.stringContaining('sub-background failed (1 in a row)')]);

        // The idle delay is a minute: only wake() can bring the next events in time.
        more = await appendRunnerEvents('test.sub-background', 1);
        const secondBatch = seenCount(existing.length + more.length);
        background.wake();
        await secondBatch;
      } finally {
        await background.stop();
      }

      expect(seen.map((event) => event.eventId)).toEqual([...existing, ...more].map((event) => event.eventId));
      expect(await store.readCheckpoint(db.database, 'sub-background')).toBe(more[0].globalPosition);
    });

    it('keeps a failing subscriber backing off without holding up another subscriber of the same events', async () => {
      const shared = { filter: { streamTypes: ['test.sub-shared'] }, idleDelayMs: 20 };
      const warnings: string[] = [];
      const broken = runner(
        'sub-broken',
        async () => {
          throw new Error('tracker down');
        },
        { ...shared, retryDelayMs: 10, maxRetryDelayMs: 40, logger: { warn: (message) => warnings.push(message) } },
      );
      const seen: RecordedEvent[] = [];
      const healthy = runner('sub-healthy', recordingHandler('sub-healthy', seen), shared);
      const events = await appendRunnerEvents('test.sub-shared', 3);
      broken.start();
      healthy.start();
      try {
        for (let waited = 0; seen.length < events.length || warnings.length < 3; waited += 10) {
          if (waited > 10_000) throw new Error(`healthy saw ${seen.length}, broken failed ${warnings.length} times`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        await Promise.all([broken.stop(), healthy.stop()]);
      }
      expect(seen.map((event) => event.eventId)).toEqual(events.map((event) => event.eventId));
      expect(await store.readCheckpoint(db.database, 'sub-healthy')).toBe(events[2].globalPosition);
      // The broken one retried with growing pauses and never moved past what it could not handle.
      expect(warnings[2]).toContain('sub-broken failed (3 in a row)');
      expect(await store.readCheckpoint(db.database, 'sub-broken')).toBe('0');
    });

    it('is woken by the recorder after a commit when built by the factory', async () => {
      const recorder = new EventRecorder(store);
      const factory = new SubscriptionRunnerFactory(db.database, store, { recorder });
      const seen: RecordedEvent[] = [];
      let resolveSeen: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => (resolveSeen = resolve));
      const subscriber = factory.create({
        name: 'sub-recorder',
        filter: { streamTypes: ['test.Recorded'] },
        idleDelayMs: 60_000,
        handle: async (events) => {
          seen.push(...events);
          if (seen.length > 0) resolveSeen();
        },
      });
      await subscriber.catchUp();
      subscriber.start();
      let recorded: RecordedEvent[];
      try {
        recorded = await db.database.transaction((tx) =>
          recorder.record(tx, 'recorded-1', 'test.Recorded', [happened(1)], { metadata: { actorType: 'system' } }),
        );
        await arrived;
      } finally {
        await subscriber.stop();
      }

      expect(recorded).toMatchObject([{ version: 1, metadata: { actorType: 'system' } }]);
      expect(seen.map((event) => event.eventId)).toEqual([recorded[0].eventId]);
    });
  });
});
