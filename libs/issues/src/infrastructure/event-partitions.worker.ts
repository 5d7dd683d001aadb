import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import { type DailyPartitions, DailyPartitionsWorker } from '@faultline/platform';
import { EventPartitionsRepository } from './event-partitions.repository';

/**
 * Keeps the days of the stored events, their ids' claims and the issues' graph counts ahead;
 * retention drops them (EventRetentionRepository).
 */
@Injectable()
export class EventPartitionsWorker extends DailyPartitionsWorker {
  readonly name = 'issues.event-partitions';
  protected readonly tables: readonly DailyPartitions[];

  constructor(partitions: EventPartitionsRepository, @Inject(CLOCK) clock: Clock) {
    super(clock);
    this.tables = [partitions.events, partitions.claims, partitions.hourlyStats, partitions.dailyStats];
  }
}
