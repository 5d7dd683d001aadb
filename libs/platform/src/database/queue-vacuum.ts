import type { Sql } from './database';

/**
 * Vacuums queue tables after every `everyRows` rows taken off them. A queue table turns over its
 * whole content every few seconds under load; left to autovacuum (a pass a minute at best; some
 * servers run without it) it grows by a minute of traffic or without end: hundreds of megabytes
 * of dead rows that crowd live pages out of shared buffers and that every scan of its indexes
 * wades through. One pass at a time per process; `SKIP_LOCKED` skips a table another process is
 * vacuuming.
 */
export class QueueVacuum {
  private taken = 0;
  private running?: Promise<void>;

  constructor(
    private readonly sql: Sql,
    private readonly tables: readonly string[],
    private readonly everyRows: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts rows taken off the tables; starts a pass, without waiting for it, once enough were. */
  count(rows: number): void {
    this.taken += rows;
    if (this.taken < this.everyRows || this.running) return;
    this.taken = 0;
    this.running = this.sql
      .execute(`VACUUM (SKIP_LOCKED) ${this.tables.join(', ')}`)
      .then(() => undefined, this.onError)
      .finally(() => (this.running = undefined));
  }

  /** Waits for a pass in progress (shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }
}
