import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database, inBatches, type RetentionTask } from '@faultline/platform';

const BATCH = 5000;
/** 10-second buckets serve the last hour's graphs (Sentry keeps 360 of them); a day of them is kept. */
const TEN_SECOND_BUCKETS_MS = 86_400_000;

/** Project stats buckets and outcome rollups older than EVENT_RETENTION_DAYS, and 10-second buckets older than a day. */
@Injectable()
export class StatsRetentionRepository implements RetentionTask {
  readonly name = 'ingest.stats';

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000);
    const tenSecondCutoff = new Date(now.getTime() - TEN_SECOND_BUCKETS_MS);
    const projectStats = await inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM ingest.project_stats WHERE ctid = ANY(ARRAY(
           (SELECT ctid FROM ingest.project_stats WHERE resolution = '10s' AND bucket < $1 LIMIT $3)
           UNION ALL
           (SELECT ctid FROM ingest.project_stats WHERE resolution IN ('1h', '1d') AND bucket < $2 LIMIT $3)))`,
        [tenSecondCutoff, cutoff, batch],
      ),
    );
    const outcomes = await inBatches(BATCH, (batch) =>
      this.database.execute(`DELETE FROM ingest.outcome_stats WHERE ctid = ANY(ARRAY(SELECT ctid FROM ingest.outcome_stats WHERE bucket < $1 LIMIT $2))`, [
        cutoff,
        batch,
      ]),
    );
    return projectStats + outcomes;
  }
}
