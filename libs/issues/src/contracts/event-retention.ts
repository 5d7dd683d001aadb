/**
 * Deletes stored events older than EVENT_RETENTION_DAYS (and the graph counts no graph shows any
 * more). The issues module runs it on a schedule in the worker role; tests and operators call it
 * directly.
 */
export abstract class EventRetention {
  /** Deletes everything past retention; answers how many events went. */
  abstract prune(): Promise<number>;
}
