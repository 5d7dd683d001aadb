import { ConcurrencyError, domainEvent, type RecordedEvent } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { EventStore, SubscriptionRunner } from '.';

/** Behaviour that needs several connections at once. */

const happened = (n: number) => domainEvent('test.Happened', { n });

interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves once `parties` callers have arrived: lines transactions up so they really overlap. */
function barrier(parties: number): () => Promise<void> {
  const all = deferred();
  let arrived = 0;
  return () => {
    if (++arrived === parties) all.resolve();
    return all.promise;
  };
}

describe('EventStore on a PostgreSQL server', () => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await openTestDatabase();
    store = new EventStore(db.database);
    await db.database.execute(
      'CREATE TABLE test_handled (subscriber text NOT NULL, event_id uuid NOT NULL, runner text NOT NULL, PRIMARY KEY (subscriber, event_id))',
    );
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  /** Opens a transaction and keeps it open until the returned `commit` is called. */
  function openTransaction() {
    const ready = deferred<Transaction>();
    const finish = deferred();
    const done = db.database.transaction(async (tx) => {
      ready.resolve(tx);
      await finish.promise;
    });
    return {
      tx: ready.promise,
      async commit() {
        finish.resolve();
        await done;
      },
    };
  }

  it('lets exactly one of many concurrent appends at the same expected version win', async () => {
    await store.append(db.database, 'race-1', 'test.Race', 'no_stream', [happened(0)]);
    const writers = 10; // the test database's pool holds exactly this many connections
    const allOpen = barrier(writers);

    const outcomes = await Promise.allSettled(
      Array.from({ length: writers }, (_, n) =>
        db.database.transaction(async (tx) => {
          await tx.query('SELECT pg_current_xact_id()'); // hold a connection and a transaction id
          await allOpen();
          return store.append(tx, 'race-1', 'test.Race', 1, [happened(n + 1)]);
        }),
      ),
    );

    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(writers - 1);
    for (const reason of lost) expect(reason).toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream(db.database, 'race-1')).map((event) => event.version)).toEqual([1, 2]);
  });

  describe('the visibility guard of readAll', () => {
    /**
     * The guard holds back everything past the oldest transaction open anywhere on the server, and
     * other databases' tests share this one: a read is taken once it holds `count` events.
     */
    async function readSettled(after: string, filter: { streamTypes: string[] }, count: number): Promise<RecordedEvent[]> {
      for (let attempt = 0; ; attempt++) {
        const read = await store.readAll(db.database, after, 100, filter);
        if (read.length >= count || attempt === 300) return read;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('returns nothing past an open transaction, then both in order once it commits', async () => {
      const filter = { streamTypes: ['test.Visibility'] };
      const a = openTransaction();
      const [fromA] = await store.append(await a.tx, 'vis-a', 'test.Visibility', 'no_stream', [happened(1)]);
      const [fromB] = await db.database.transaction((tx) => store.append(tx, 'vis-b', 'test.Visibility', 'no_stream', [happened(2)]));
      expect(BigInt(fromA.globalPosition)).toBeLessThan(BigInt(fromB.globalPosition));

      // B is committed, but a reader that took it would move its checkpoint past A's lower position.
      expect(await store.readAll(db.database, '0', 100, filter)).toEqual([]);

      await a.commit();
      const read = await readSettled('0', filter, 2);
      expect(read.map((event) => event.eventId)).toEqual([fromA.eventId, fromB.eventId]);
    });

    it('never skips an open transaction that holds lower positions than a committed one', async () => {
      const filter = { streamTypes: ['test.LateCommit'] };
      // A takes its transaction id first (as a command writes its state before its events) ...
      const a = openTransaction();
      await (await a.tx).query('SELECT pg_current_xact_id()');
      // ... B appends first, so B's event has the lower position, and B stays open ...
      const b = openTransaction();
      const [fromB] = await store.append(await b.tx, 'late-b', 'test.LateCommit', 'no_stream', [happened(1)]);
      // ... A appends later (higher position) and commits first.
      const [fromA] = await store.append(await a.tx, 'late-a', 'test.LateCommit', 'no_stream', [happened(2)]);
      await a.commit();
      expect(BigInt(fromB.globalPosition)).toBeLessThan(BigInt(fromA.globalPosition));

      // A reader may take A now and save A as its checkpoint ...
      const first = await readSettled('0', filter, 1);
      expect(first.map((event) => event.eventId)).toEqual([fromA.eventId]);

      // ... and still gets B, whose position is lower, once B commits.
      await b.commit();
      const next = await readSettled(first[0].globalPosition, filter, 1);
      expect(next.map((event) => event.eventId)).toEqual([fromB.eventId]);
    });

    it("refuses to append after a stream version written by a younger transaction, so the feed keeps each stream's order", async () => {
      const filter = { streamTypes: ['test.StreamOrder'] };
      let attempts = 0;
      const started = deferred();
      const appended = deferred();
      const older = db.database.transaction(
        async (tx) => {
          attempts += 1;
          await tx.query('SELECT pg_current_xact_id()');
          if (attempts === 1) {
            started.resolve();
            await appended.promise; // a younger transaction appends version 1 meanwhile
          }
          return store.append(tx, 'ordered-1', 'test.StreamOrder', 'any', [happened(attempts)]);
        },
        { retries: 1 },
      );
      await started.promise;
      await store.append(db.database, 'ordered-1', 'test.StreamOrder', 'no_stream', [happened(0)]);
      appended.resolve();

      await older; // the first attempt failed with ConcurrencyError; the rerun has a younger id
      expect(attempts).toBe(2);
      const feed = await readSettled('0', filter, 2);
      expect(feed.map((event) => event.version)).toEqual([1, 2]);
    });
  });

  it('lets two runners of the same subscriber handle every event exactly once', async () => {
    const total = 60;
    const handled: RecordedEvent[] = [];
    const warnings: string[] = [];
    const allHandled = deferred();
    const runner = (label: string) =>
      new SubscriptionRunner({
        name: 'shared-subscriber',
        database: db.database,
        eventStore: store,
        filter: { streamTypes: ['test.Shared'] },
        batchSize: 4,
        idleDelayMs: 5,
        logger: { warn: (message) => warnings.push(message) },
        handle: async (events, tx) => {
          for (const event of events) {
            // The primary key turns a second handling of an event into a failure of this batch.
            await tx.execute('INSERT INTO test_handled (subscriber, event_id, runner) VALUES ($1, $2, $3)', ['shared-subscriber', event.eventId, label]);
          }
          await new Promise((resolve) => setTimeout(resolve, 2)); // widen the window for overlap
          handled.push(...events);
          if (handled.length >= total) allHandled.resolve();
        },
      });
    const runners = [runner('one'), runner('two')];
    for (const r of runners) r.start();
    try {
      // Appends race with both runners: three writers of one event at a time.
      for (let n = 0; n < total; n += 3) {
        await Promise.all([0, 1, 2].map((k) => store.append(db.database, `shared-${n + k}`, 'test.Shared', 'no_stream', [happened(n + k)])));
      }
      await allHandled.promise;
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }

    expect(warnings).toEqual([]);
    const ids = handled.map((event) => event.eventId);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toHaveLength(total);
    const [{ count }] = await db.database.query<{ count: string }>(`SELECT count(*) AS count FROM test_handled WHERE subscriber = 'shared-subscriber'`);
    expect(count).toBe(String(total));
  });
});
