import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, DAY_MS, DAYS_AHEAD } from '@faultline/platform';
import { EventPartitionsRepository } from './event-partitions.repository';
import { HOURLY_STATS_KEPT_MS } from './issue-read-model.repository';

const INTERVAL_MS = 10 * 60_000;

/**
 * Keeps the partitions of the stored events, their ids' claims and the issues' graph counts ahead
 * of time: today and the next DAYS_AHEAD days, and any day still kept whose rows the default
 * partition took (a late clock, a restored backup, the days before the first round, counts of
 * events that occurred days before they arrived), whose rows move into it. Retention drops whole
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

  /** Creates the days due now; answers those this call created, by table. */
  async maintain(): Promise<Record<string, Date[]>> {
    const now = this.clock.now();
    const retained = new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS);
    const { events, claims, hourlyStats, dailyStats } = this.partitions;
    const created: Record<string, Date[]> = {};
    for (const [partitions, keptSince] of [
      [events, retained],
      [claims, retained],
      [hourlyStats, new Date(now.getTime() - HOURLY_STATS_KEPT_MS)],
      [dailyStats, retained],
    ] as const) {
      created[partitions.table] = await partitions.ensure(now, keptSince, DAYS_AHEAD);
    }
    return created;
  }
}
