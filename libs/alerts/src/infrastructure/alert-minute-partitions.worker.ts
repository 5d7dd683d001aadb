import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, DAYS_AHEAD } from '@faultline/platform';
import { AlertMinutePartitionsRepository, MINUTES_KEPT_MS } from './alert-minute-partitions.repository';

const INTERVAL_MS = 10 * 60_000;

/**
 * Keeps the alert minutes' partitions ahead of time: today and the next DAYS_AHEAD days, and any
 * day still kept whose minutes the default partition took (a late clock, a restored backup, the
 * days before the first round), whose minutes move into it. Retention drops whole days
 * (AlertMinutePartitionsRepository.prune). Any number of workers may run it: each change is made once.
 */
@Injectable()
export class AlertMinutePartitionsWorker implements BackgroundWorker {
  readonly name = 'alerts.minute-partitions';
  private readonly logger = new Logger('AlertMinutePartitions');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.maintain();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.error(`partition maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly partitions: AlertMinutePartitionsRepository,
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
    for (const partitions of this.partitions.tables) {
      for (const day of await partitions.ensure(now, new Date(now.getTime() - MINUTES_KEPT_MS), DAYS_AHEAD)) created.push(partitions.partitionName(day));
    }
    return created;
  }
}
