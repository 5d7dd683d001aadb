import { Logger } from '@nestjs/common';
import { type Clock, PollingLoop } from '@faultline/kernel';
import type { BackgroundWorker } from '../lifecycle/worker-host';
import { type DailyPartitions, DAYS_AHEAD } from './daily-partitions';

const INTERVAL_MS = 10 * 60_000;

/**
 * Keeps a context's tables of days ahead of time: today and the next DAYS_AHEAD days of each. The
 * context's retention drops whole days. Any number of workers may run it: each change is made once.
 */
export abstract class DailyPartitionsWorker implements BackgroundWorker {
  abstract readonly name: string;
  protected abstract readonly tables: readonly DailyPartitions[];
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.maintain();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => new Logger(this.name).error(`partition maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(private readonly clock: Clock) {}

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Creates the days due now; answers the partitions this call created. */
  async maintain(): Promise<string[]> {
    const now = this.clock.now();
    const created: string[] = [];
    for (const partitions of this.tables) {
      for (const day of await partitions.ensure(now, DAYS_AHEAD)) created.push(partitions.partitionName(day));
    }
    return created;
  }
}
