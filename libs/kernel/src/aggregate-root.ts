import { DomainEvent } from './domain-event';

/**
 * Event-sourced aggregate base: decisions raise events through `raise`, and `evolve` (one switch in
 * the subclass) is the only place state changes, both when deciding and when replaying history.
 */
export abstract class AggregateRoot<TEvent extends DomainEvent> {
  private pending: TEvent[] = [];
  private persistedVersion = 0;

  get version(): number {
    return this.persistedVersion + this.pending.length;
  }

  /** The version the stream had when this aggregate was loaded: the append's expected version. */
  get loadedVersion(): number {
    return this.persistedVersion;
  }

  protected abstract evolve(event: TEvent): void;

  protected raise(event: TEvent): void {
    this.evolve(event);
    this.pending.push(event);
  }

  loadFromHistory(history: readonly TEvent[]): this {
    for (const event of history) this.evolve(event);
    this.persistedVersion += history.length;
    return this;
  }

  pullPendingEvents(): TEvent[] {
    const events = this.pending;
    this.persistedVersion += events.length;
    this.pending = [];
    return events;
  }

  peekPendingEvents(): readonly TEvent[] {
    return this.pending;
  }
}
