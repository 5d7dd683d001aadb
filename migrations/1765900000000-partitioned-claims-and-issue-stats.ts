import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The other tables that grow with stored events, partitioned by the day (UTC) like the events, so
 * retention drops whole days with theirs instead of deleting rows that autovacuum must then chase
 * (see EventPartitionsRepository):
 *
 * - `issues.event_ids`, the claims of stored events' ids, by `claimed_on`, the day its event was
 *   received. A unique key must hold the partition key, so the primary key becomes
 *   `(project_id, event_id, claimed_on)`: ingestion refuses an id claimed on the same or the
 *   previous day, so a re-sent id is caught within at least 24 hours of the first.
 * - `issues.issue_stats`, the issues' graph counts, by resolution into `issue_stats_hourly` and
 *   `issue_stats_daily`, each by `bucket`: hourly days go after two days, daily ones with the events.
 *   They no longer reference `issues.issues`: attaching a day would lock that table against every
 *   ingest batch (and deadlock with one that wrote an issue and then a default partition's row).
 *   Deleting an issue deletes its counts (IssueEventMovesRepository); those of a deleted project's
 *   issues, whose ids are never used again, go with their days.
 *
 * Rows move over; each table gets the days its rows span, today and the next 7, and a default
 * partition for the rest, whose strays the maintainer moves into their days.
 */
export class PartitionedClaimsAndIssueStats1765900000000 implements MigrationInterface {
  name = 'PartitionedClaimsAndIssueStats1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.event_ids RENAME TO event_ids_unpartitioned;
      ALTER INDEX issues.event_ids_pkey RENAME TO event_ids_unpartitioned_pkey;
      DROP INDEX issues.event_ids_received_idx;
      CREATE TABLE issues.event_ids (
        project_id bigint NOT NULL,
        event_id text NOT NULL,
        claimed_on timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        id bigint NOT NULL,
        PRIMARY KEY (project_id, event_id, claimed_on)
      ) PARTITION BY RANGE (claimed_on);
      ${createDays('event_ids', `SELECT DISTINCT date_trunc('day', received_at, 'UTC') FROM issues.event_ids_unpartitioned`)}
      CREATE TABLE issues.event_ids_default PARTITION OF issues.event_ids DEFAULT;
      CREATE INDEX event_ids_default_claimed_idx ON issues.event_ids_default (claimed_on);
      INSERT INTO issues.event_ids (project_id, event_id, claimed_on, received_at, id)
        SELECT project_id, event_id, date_trunc('day', received_at, 'UTC'), received_at, id FROM issues.event_ids_unpartitioned;
      DROP TABLE issues.event_ids_unpartitioned;

      ALTER TABLE issues.issue_stats RENAME TO issue_stats_unpartitioned;
      ALTER INDEX issues.issue_stats_pkey RENAME TO issue_stats_unpartitioned_pkey;
      DROP INDEX issues.issue_stats_bucket_idx;
      CREATE TABLE issues.issue_stats (
        issue_id bigint NOT NULL,
        resolution text NOT NULL CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (issue_id, resolution, bucket)
      ) PARTITION BY LIST (resolution);
      CREATE TABLE issues.issue_stats_hourly PARTITION OF issues.issue_stats FOR VALUES IN ('1h') PARTITION BY RANGE (bucket);
      CREATE TABLE issues.issue_stats_daily PARTITION OF issues.issue_stats FOR VALUES IN ('1d') PARTITION BY RANGE (bucket);
      ${createDays('issue_stats_hourly', `SELECT DISTINCT date_trunc('day', bucket, 'UTC') FROM issues.issue_stats_unpartitioned WHERE resolution = '1h'`)}
      ${createDays('issue_stats_daily', `SELECT DISTINCT date_trunc('day', bucket, 'UTC') FROM issues.issue_stats_unpartitioned WHERE resolution = '1d'`)}
      CREATE TABLE issues.issue_stats_hourly_default PARTITION OF issues.issue_stats_hourly DEFAULT;
      CREATE TABLE issues.issue_stats_daily_default PARTITION OF issues.issue_stats_daily DEFAULT;
      CREATE INDEX issue_stats_hourly_default_bucket_idx ON issues.issue_stats_hourly_default (bucket);
      CREATE INDEX issue_stats_daily_default_bucket_idx ON issues.issue_stats_daily_default (bucket);
      INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) SELECT issue_id, resolution, bucket, count FROM issues.issue_stats_unpartitioned;
      DROP TABLE issues.issue_stats_unpartitioned;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.event_ids RENAME TO event_ids_partitioned;
      ALTER INDEX issues.event_ids_pkey RENAME TO event_ids_partitioned_pkey;
      CREATE TABLE issues.event_ids (
        project_id bigint NOT NULL,
        event_id text NOT NULL,
        received_at timestamptz NOT NULL,
        id bigint NOT NULL,
        PRIMARY KEY (project_id, event_id)
      );
      CREATE INDEX event_ids_received_idx ON issues.event_ids (received_at);
      -- An id stored again after the window keeps its newest claim.
      INSERT INTO issues.event_ids (project_id, event_id, received_at, id)
        SELECT DISTINCT ON (project_id, event_id) project_id, event_id, received_at, id FROM issues.event_ids_partitioned
        ORDER BY project_id, event_id, claimed_on DESC;
      DROP TABLE issues.event_ids_partitioned;

      ALTER TABLE issues.issue_stats RENAME TO issue_stats_partitioned;
      ALTER INDEX issues.issue_stats_pkey RENAME TO issue_stats_partitioned_pkey;
      CREATE TABLE issues.issue_stats (
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE,
        resolution text NOT NULL CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (issue_id, resolution, bucket)
      );
      CREATE INDEX issue_stats_bucket_idx ON issues.issue_stats (bucket);
      INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) SELECT issue_id, resolution, bucket, count FROM issues.issue_stats_partitioned;
      DROP TABLE issues.issue_stats_partitioned;
    `);
  }
}

/**
 * Creates a partition `<table>_pYYYYMMDD` of `issues.<table>` for each day (UTC) `days` answers,
 * today and the next 7. In hours, not days: a day of the session's time zone may last 23 or 25.
 */
function createDays(table: string, days: string): string {
  return `DO $$
      DECLARE day timestamptz;
      BEGIN
        FOR day IN ${days} UNION SELECT date_trunc('day', now(), 'UTC') + n * interval '24 hours' FROM generate_series(0, 7) AS n LOOP
          EXECUTE format('CREATE TABLE issues.%I PARTITION OF issues.%I FOR VALUES FROM (%L) TO (%L)',
            '${table}_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), '${table}', day, day + interval '24 hours');
        END LOOP;
      END $$;`;
}
