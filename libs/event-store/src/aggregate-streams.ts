import { type AggregateRoot, ConcurrencyError, type DomainEvent, type EventMetadata, type RecordedEvent } from '@faultline/kernel';
// Type-only: the platform barrel also carries Nest modules, which this framework-light file avoids.
import type { Sql, Transaction } from '@faultline/platform';
import type { EventRecorder } from './event-recorder';
import type { EventStore } from './event-store';

/** What the store needs to know of an event-sourced aggregate type. */
export interface AggregateType<A extends AggregateRoot<E>, E extends DomainEvent> {
  readonly streamType: string;
  /** Rebuilds an aggregate from its stream, oldest first (never empty: an empty stream has no aggregate). */
  rebuild(history: readonly E[]): A;
}

export interface DecideOptions<A> {
  readonly metadata?: EventMetadata;
  /**
   * The aggregate, if the caller has already loaded it in this transaction (to check something
   * first) and has not decided anything on it yet: the first attempt decides on it instead of
   * reading the stream again.
   */
  readonly loaded?: A;
}

/** What a decision made: the aggregate after it, the decision's answer and the events appended. */
export interface Decided<A, R> {
  readonly aggregate: A;
  readonly result: R;
  readonly recorded: readonly RecordedEvent[];
}

/** The savepoint that lets a conflicting append be rolled back and decided again in the same transaction. */
const SAVEPOINT = 'aggregate_append';

/**
 * The one load–decide–append step of every event-sourced aggregate, run in the caller's transaction:
 * the expected version of an append is always the version the aggregate was loaded at (0 for a new
 * stream, which the store treats as 'no_stream'). A decision that raises nothing appends nothing.
 *
 * When another writer appended first (ConcurrencyError), the append is rolled back to a savepoint,
 * the stream read again and the decision taken once more on what it holds now. A second conflict
 * (for one, a writer whose transaction is newer than the caller's, see EventStore.append) reaches
 * the caller, and `Database.transaction` runs the whole unit again.
 */
export class AggregateStreams<A extends AggregateRoot<E>, E extends DomainEvent> {
  constructor(
    private readonly eventStore: EventStore,
    private readonly recorder: EventRecorder,
    private readonly type: AggregateType<A, E>,
  ) {}

  /** The aggregate of a stream, or null if the stream has no events. */
  async load(sql: Sql, streamId: string): Promise<A | null> {
    const history = await this.eventStore.readStream(sql, streamId);
    return history.length ? this.type.rebuild(history as unknown as E[]) : null;
  }

  /** Appends what the aggregate raised since it was loaded (or created): a new aggregate starts its stream. */
  async append(tx: Transaction, streamId: string, aggregate: A, metadata?: EventMetadata): Promise<RecordedEvent[]> {
    // eslint-disable-next-line no-restricted-syntax -- this is the one place that appends an aggregate
    const expectedVersion = aggregate.loadedVersion;
    const events = aggregate.peekPendingEvents();
    if (events.length === 0) return [];
    const recorded = await this.recorder.record(tx, streamId, this.type.streamType, events, { expectedVersion, metadata });
    // eslint-disable-next-line no-restricted-syntax -- the events are stored: they are no longer pending
    aggregate.pullPendingEvents();
    return recorded;
  }

  /**
   * Loads the stream's aggregate, lets `decide` call its commands, and appends what they raised.
   * Answers null, deciding nothing, if the stream has no events. `decide` may run twice (see the
   * class), so it only calls the aggregate; effects that depend on its answer come after.
   */
  async decide<R>(tx: Transaction, streamId: string, decide: (aggregate: A) => R, options: DecideOptions<A> = {}): Promise<Decided<A, R> | null> {
    if (options.loaded && options.loaded.peekPendingEvents().length > 0) throw new Error(`${streamId}: decided on before the step`);
    let aggregate = options.loaded ?? (await this.load(tx, streamId));
    for (let attempt = 0; aggregate; attempt++) {
      const result = decide(aggregate);
      if (aggregate.peekPendingEvents().length === 0) return { aggregate, result, recorded: [] };
      if (attempt > 0) return { aggregate, result, recorded: await this.append(tx, streamId, aggregate, options.metadata) };
      await tx.execute(`SAVEPOINT ${SAVEPOINT}`);
      try {
        const recorded = await this.append(tx, streamId, aggregate, options.metadata);
        await tx.execute(`RELEASE SAVEPOINT ${SAVEPOINT}`);
        return { aggregate, result, recorded };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        await tx.execute(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
        aggregate = await this.load(tx, streamId);
      }
    }
    return null;
  }
}
