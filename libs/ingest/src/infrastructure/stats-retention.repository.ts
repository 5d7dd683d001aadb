import { Injectable } from '@nestjs/common';
import type { RetentionTask } from '@faultline/platform';
import { StatsPartitionsRepository } from './stats-partitions.repository';

/**
 * Project stats buckets and outcome rollups older than EVENT_RETENTION_DAYS, and 10-second buckets
 * older than a day. They go by whole days of their bucket (UTC): a day's partition is detached and
 * dropped once the whole day is past its table's retention, so a bucket is kept at least that long
 * and less than a day longer. Only the default partitions' strays are deleted row by row.
 */
@Injectable()
export class StatsRetentionRepository implements RetentionTask {
  readonly name = 'ingest.stats';

  constructor(private readonly partitions: StatsPartitionsRepository) {}

  async prune(now: Date): Promise<number> {
    let rows = 0;
    for (const { partitions, keptMs } of this.partitions.tables) {
      rows += await partitions.prune(new Date(now.getTime() - keptMs));
    }
    return rows;
  }
}
