/**
 * Group commit: callers hand over items and wait; items that arrive while a write is in flight
 * are written together by the next one. Many small concurrent requests then cost a few writes (one
 * transaction each) instead of one each, and never wait on each other's row locks in this process.
 * Each caller learns the outcome of the write that carried its items.
 */
export class GroupCommit<T> {
  private readonly pending: Array<{ items: readonly T[]; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { readonly concurrentWrites: number; readonly maxItemsPerWrite: number },
  ) {}

  add(items: readonly T[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      this.writeNext();
    });
  }

  private writeNext(): void {
    while (this.writing < this.options.concurrentWrites && this.pending.length > 0) {
      const group = [this.pending.shift() as (typeof this.pending)[number]];
      let count = group[0].items.length;
      while (this.pending.length > 0 && count + this.pending[0].items.length <= this.options.maxItemsPerWrite) {
        const next = this.pending.shift() as (typeof this.pending)[number];
        count += next.items.length;
        group.push(next);
      }
      this.writing++;
      this.write(group.flatMap((entry) => entry.items))
        .then(
          () => group.forEach((entry) => entry.resolve()),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.writing--;
          this.writeNext();
        });
    }
  }
}
