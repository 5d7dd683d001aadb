import { AggregateRoot, ConcurrencyError, DomainError, domainEvent, type DomainEvent, type RecordedEvent } from '@faultline/kernel';
import { openTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { AggregateStreams, EventRecorder, EventStore } from '.';

type Added = DomainEvent<'test.Added', { amount: number }>;

class Counter extends AggregateRoot<Added> {
  total = 0;
  static start(amount: number): Counter {
    const counter = new Counter();
    counter.raise(domainEvent('test.Added', { amount }));
    return counter;
  }
  /** Adds `amount`; zero changes nothing, a negative amount is refused. */
  add(amount: number): number {
    if (amount < 0) throw DomainError.invalid('amount must not be negative');
    if (amount > 0) this.raise(domainEvent('test.Added', { amount }));
    return this.total;
  }
  protected evolve(event: Added): void {
    this.total += event.data.amount;
  }
}

describe('AggregateStreams', () => {
  let db: TestDatabase;
  let store: EventStore;
  let recorder: EventRecorder;
  let counters: AggregateStreams<Counter, Added>;
  const committed: RecordedEvent[] = [];

  beforeAll(async () => {
    db = await openTestDatabase();
    store = new EventStore(db.database);
    recorder = new EventRecorder(store);
    recorder.onCommitted((events) => committed.push(...events));
    counters = new AggregateStreams(store, recorder, { streamType: 'test.Counter', rebuild: (history) => new Counter().loadFromHistory(history) });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const versions = async (streamId: string) => (await store.readStream(db.database, streamId)).map((event) => [event.version, event.data.amount]);

  it('starts a stream with a new aggregate, and refuses a second new one on it', async () => {
    const recorded = await db.database.transaction((tx) => counters.append(tx, 'counter-1', Counter.start(1), { actorType: 'system' }));
    expect(recorded).toMatchObject([{ streamId: 'counter-1', streamType: 'test.Counter', version: 1, metadata: { actorType: 'system' } }]);
    await expect(db.database.transaction((tx) => counters.append(tx, 'counter-1', Counter.start(5)), { retries: 0 })).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await versions('counter-1')).toEqual([[1, 1]]);
  });

  it('decides nothing on an empty stream; a decision that changes nothing appends nothing; a refusal appends nothing', async () => {
    expect(await db.database.transaction((tx) => counters.decide(tx, 'no-counter', (counter) => counter.add(1)))).toBeNull();
    const unchanged = await db.database.transaction((tx) => counters.decide(tx, 'counter-1', (counter) => counter.add(0)));
    expect(unchanged).toMatchObject({ result: 1, recorded: [] });
    await expect(db.database.transaction((tx) => counters.decide(tx, 'counter-1', (counter) => counter.add(-1)))).rejects.toThrow(/negative/);
    expect(await versions('counter-1')).toEqual([[1, 1]]);
  });

  it('appends a decision with the version it was loaded at, and tells listeners once it commits', async () => {
    committed.length = 0;
    const decided = await db.database.transaction((tx) => counters.decide(tx, 'counter-1', (counter) => counter.add(2)));
    expect(decided?.result).toBe(3);
    expect(decided?.recorded.map((event) => event.version)).toEqual([2]);
    expect(decided?.aggregate.peekPendingEvents()).toEqual([]);
    expect(committed.map((event) => event.version)).toEqual([2]);
    expect(await versions('counter-1')).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('decides a stale load again on what the stream holds now, once, in the same transaction', async () => {
    const stale = (await counters.load(db.database, 'counter-1')) as Counter;
    await db.database.transaction((tx) => counters.decide(tx, 'counter-1', (counter) => counter.add(10)));
    committed.length = 0;
    const totals: number[] = [];
    const decided = await db.database.transaction(
      (tx) =>
        counters.decide(
          tx,
          'counter-1',
          (counter) => {
            totals.push(counter.total);
            return counter.add(100);
          },
          { loaded: stale },
        ),
      { retries: 0 },
    );
    expect(totals).toEqual([3, 13]);
    expect(decided?.result).toBe(113);
    expect(committed.map((event) => event.version)).toEqual([4]);
    expect(await versions('counter-1')).toEqual([
      [1, 1],
      [2, 2],
      [3, 10],
      [4, 100],
    ]);
  });

  it('lets a second conflict reach the caller, appending nothing', async () => {
    const stale = (await counters.load(db.database, 'counter-1')) as Counter;
    const attempt = db.database.transaction(
      async (tx) => {
        // An id older than the other writer's: this transaction's events cannot follow its events in the feed.
        await tx.query('SELECT pg_current_xact_id()');
        await db.database.transaction((other) => counters.decide(other, 'counter-1', (counter) => counter.add(1000)));
        await counters.decide(tx, 'counter-1', (counter) => counter.add(7), { loaded: stale });
      },
      { retries: 0 },
    );
    await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await versions('counter-1')).at(-1)).toEqual([5, 1000]);
  });

  it('refuses an aggregate that was decided on before the step', async () => {
    const loaded = (await counters.load(db.database, 'counter-1')) as Counter;
    loaded.add(1);
    await expect(db.database.transaction((tx) => counters.decide(tx, 'counter-1', (counter) => counter.add(1), { loaded }))).rejects.toThrow(/before the step/);
  });
});
