import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, DAY_MS } from '@faultline/platform';
import { EventPartitionsRepository } from './event-partitions.repository';

/** Days with a partition before events arrive for them: a week of missed rounds still finds each day ready. */
export const DAYS_AHEAD = 7;
const INTERVAL_MS = 10 * 60_000;

/**
 * Keeps the stored events' partitions ahead of time: today and the next DAYS_AHEAD days, and any
 * day still within retention whose events the default partition took (a late clock, a restored
 * backup, the days before the first round), whose events move into it. Retention drops whole
 * days (EventRetentionRepository). Any number of workers may run it: each change is made once.
 */
@Injectable()
export class EventPartitionsWorker implements BackgroundWorker {
  readonly name = 'issues.event-partitions';
  private readonly logger = new Logger('EventPartitions');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.maintain();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.error(`partition maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly partitions: EventPartitionsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Creates the days due now; answers those this call created. */
  maintain(): Promise<Date[]> {
    const now = this.clock.now();
    return this.partitions.ensure(now, new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS), DAYS_AHEAD);
  }
}
