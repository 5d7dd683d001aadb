import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes by time for the retention schedule's deletes of rows that grow with events: project
 * stats buckets (10-second ones go after a day), outcome rollups, release health's hourly counts
 * and cron check-ins. Sessions' distinct members are found through their project and hour, from
 * the counts, so the largest table gains no index.
 */
export class RetentionIndexes1764850000000 implements MigrationInterface {
  name = 'RetentionIndexes1764850000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX project_stats_age_idx ON ingest.project_stats (resolution, bucket);
      CREATE INDEX outcome_stats_age_idx ON ingest.outcome_stats (bucket);
      CREATE INDEX session_counts_age_idx ON releases.session_counts (bucket);
      CREATE INDEX check_ins_age_idx ON monitors.check_ins (date_created);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX monitors.check_ins_age_idx;
      DROP INDEX releases.session_counts_age_idx;
      DROP INDEX ingest.outcome_stats_age_idx;
      DROP INDEX ingest.project_stats_age_idx;
    `);
  }
}
