import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, DailyPartitionsWorker, DAY_MS, type KeptDays } from '@faultline/platform';
import { EventPartitionsRepository } from './event-partitions.repository';
import { HOURLY_STATS_KEPT_MS } from './issue-read-model.repository';

/**
 * Keeps the days of the stored events, their ids' claims and the issues' graph counts ahead;
 * retention drops them (EventRetentionRepository).
 */
@Injectable()
export class EventPartitionsWorker extends DailyPartitionsWorker {
  readonly name = 'issues.event-partitions';
  protected readonly tables: readonly KeptDays[];

  constructor(partitions: EventPartitionsRepository, @Inject(CLOCK) clock: Clock, @Inject(APP_CONFIG) config: AppConfig) {
    super(clock);
    const retention = config.eventRetentionDays * DAY_MS;
    this.tables = [
      { partitions: partitions.events, keptMs: retention },
      { partitions: partitions.claims, keptMs: retention },
      { partitions: partitions.hourlyStats, keptMs: HOURLY_STATS_KEPT_MS },
      { partitions: partitions.dailyStats, keptMs: retention },
    ];
  }
}
