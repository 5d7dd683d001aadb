import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, DAYS_AHEAD } from '@faultline/platform';
import { StatsPartitionsRepository } from './stats-partitions.repository';

const INTERVAL_MS = 10 * 60_000;

/**
 * Keeps the stats rollups' partitions ahead of time: today and the next DAYS_AHEAD days of each
 * table, and any day still kept whose rows the default partition took (a late clock, a restored
 * backup, the days before the first round), whose rows move into it. Retention drops whole days
 * (StatsRetentionRepository). Any number of workers may run it: each change is made once.
 */
@Injectable()
export class StatsPartitionsWorker implements BackgroundWorker {
  readonly name = 'ingest.stats-partitions';
  private readonly logger = new Logger('StatsPartitions');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.maintain();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.error(`partition maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly partitions: StatsPartitionsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

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
    for (const { partitions, keptMs } of this.partitions.tables) {
      for (const day of await partitions.ensure(now, new Date(now.getTime() - keptMs), DAYS_AHEAD)) created.push(partitions.partitionName(day));
    }
    return created;
  }
}
