import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import { type DailyPartitions, DailyPartitionsWorker } from '@faultline/platform';
import { StatsPartitionsRepository } from './stats-partitions.repository';

/** Keeps the stats rollups' days ahead; retention drops them (StatsRetentionRepository). */
@Injectable()
export class StatsPartitionsWorker extends DailyPartitionsWorker {
  readonly name = 'ingest.stats-partitions';
  protected readonly tables: readonly DailyPartitions[];

  constructor(partitions: StatsPartitionsRepository, @Inject(CLOCK) clock: Clock) {
    super(clock);
    this.tables = partitions.tables.map((table) => table.partitions);
  }
}
