import type { DomainEvent, EventMetadata, RecordedEvent } from '@faultline/kernel';
// Type-only: the platform barrel also carries Nest modules, which this framework-light file avoids.
import type { Transaction } from '@faultline/platform';
import type { ExpectedVersion } from './contracts';
import type { EventStore } from './event-store';

export interface RecordOptions {
  /** Default 'any': for contexts whose tables are the truth and whose streams record what changed. */
  readonly expectedVersion?: ExpectedVersion;
  readonly metadata?: EventMetadata;
}

/** Told, after the commit, about events this process recorded: the fast path that wakes subscribers. */
export type CommittedListener = (events: readonly RecordedEvent[]) => void;

/**
 * Runs inside the transaction that appends the events, so what it writes (webhook deliveries, for
 * one) commits or rolls back with them.
 */
export type AppendedHandler = (tx: Transaction, events: readonly RecordedEvent[]) => Promise<void>;

/**
 * What command handlers use to record their events in their own transaction: an append that, once
 * the transaction commits, tells this process's listeners (subscription runners wake at once
 * instead of at their next poll). The tables stay the truth; a listener that misses a call loses
 * nothing but latency.
 */
export class EventRecorder {
  private readonly listeners = new Set<CommittedListener>();
  private readonly appendedHandlers = new Set<AppendedHandler>();

  constructor(private readonly eventStore: EventStore) {}

  /**
   * Appends `events` inside `tx`. With the default expected version 'any', a concurrent append to
   * the same stream still surfaces as ConcurrencyError (see EventStore.append); run the unit with
   * `Database.transaction(work, { retries })` where that can happen.
   */
  async record(tx: Transaction, streamId: string, streamType: string, events: readonly DomainEvent[], options: RecordOptions = {}): Promise<RecordedEvent[]> {
    const recorded = await this.eventStore.append(tx, streamId, streamType, options.expectedVersion ?? 'any', events, options.metadata);
    await this.appended(tx, recorded);
    return recorded;
  }

  /** Records one-event streams in bulk (see EventStore.startStreams) and tells listeners after the commit. */
  async recordNewStreams(
    tx: Transaction,
    entries: ReadonlyArray<{ streamId: string; streamType: string; event: DomainEvent; metadata?: EventMetadata }>,
  ): Promise<RecordedEvent[]> {
    const recorded = await this.eventStore.startStreams(tx, entries);
    await this.appended(tx, recorded);
    return recorded;
  }

  /** Registers a listener for committed events; answers a function that removes it. */
  onCommitted(listener: CommittedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers a handler that runs in every appending transaction; answers a function that removes it. */
  onAppended(handler: AppendedHandler): () => void {
    this.appendedHandlers.add(handler);
    return () => this.appendedHandlers.delete(handler);
  }

  private async appended(tx: Transaction, recorded: RecordedEvent[]): Promise<void> {
    if (recorded.length === 0) return;
    for (const handler of this.appendedHandlers) await handler(tx, recorded);
    tx.afterCommit(() => this.notify(recorded));
  }

  private notify(events: readonly RecordedEvent[]): void {
    for (const listener of this.listeners) listener(events);
  }
}
