import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, DailyPartitions, Database, DAY_MS, type KeptDays } from '@faultline/platform';

/** 10-second buckets serve the last hour's graphs (Sentry keeps 360 of them); a day of them is kept. */
const TEN_SECOND_BUCKETS_KEPT_MS = DAY_MS;

/**
 * The daily partitions (UTC) of the stats rollups, by bucket: those of each resolution of
 * `ingest.project_stats` (10-second buckets kept a day, the others EVENT_RETENTION_DAYS) and of
 * `ingest.outcome_stats` (EVENT_RETENTION_DAYS).
 */
@Injectable()
export class StatsPartitionsRepository {
  readonly tables: readonly KeptDays[];

  constructor(database: Database, @Inject(APP_CONFIG) config: AppConfig) {
    const retention = config.eventRetentionDays * DAY_MS;
    const days = (table: string, keptMs: number): KeptDays => ({ partitions: new DailyPartitions(database, table, 'bucket'), keptMs });
    this.tables = [
      days('ingest.project_stats_10s', TEN_SECOND_BUCKETS_KEPT_MS),
      days('ingest.project_stats_1h', retention),
      days('ingest.project_stats_1d', retention),
      days('ingest.outcome_stats', retention),
    ];
  }
}
