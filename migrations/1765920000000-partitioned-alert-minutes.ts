import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-minute counts alert rules read partitioned by the day (UTC) of their minute, so the
 * minutes no rule reads any more go by whole days instead of row by row (see
 * AlertMinutePartitionsRepository). A default partition takes what no day holds yet; the
 * maintainer creates days ahead and moves such strays into their day. The primary keys already
 * hold the minute, so the upserts' ON CONFLICT stays as it was. Days are created for the days the
 * rows span, today and the week ahead; a day is 24 hours from 00:00 UTC whatever the session's
 * time zone.
 */
export class PartitionedAlertMinutes1765920000000 implements MigrationInterface {
  name = 'PartitionedAlertMinutes1765920000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE alerts.alert_issue_minutes RENAME TO alert_issue_minutes_unpartitioned;
      ALTER INDEX alerts.alert_issue_minutes_pkey RENAME TO alert_issue_minutes_unpartitioned_pkey;
      DROP INDEX alerts.alert_issue_minutes_project_idx, alerts.alert_issue_minutes_bucket_idx;
      ALTER TABLE alerts.alert_issue_minute_users RENAME TO alert_issue_minute_users_unpartitioned;
      ALTER INDEX alerts.alert_issue_minute_users_pkey RENAME TO alert_issue_minute_users_unpartitioned_pkey;
      DROP INDEX alerts.alert_issue_minute_users_project_idx, alerts.alert_issue_minute_users_bucket_idx;

      CREATE TABLE alerts.alert_issue_minutes (
        issue_id bigint NOT NULL CONSTRAINT alert_issue_minutes_issue_id_fkey REFERENCES issues.issues (id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL,
        events integer NOT NULL,
        environment text NOT NULL DEFAULT '',
        level text NOT NULL DEFAULT '',
        PRIMARY KEY (issue_id, bucket, environment, level)
      ) PARTITION BY RANGE (bucket);
      CREATE INDEX alert_issue_minutes_project_idx ON alerts.alert_issue_minutes (project_id, bucket);
      CREATE TABLE alerts.alert_issue_minute_users (
        issue_id bigint NOT NULL CONSTRAINT alert_issue_minute_users_issue_id_fkey REFERENCES issues.issues (id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        user_tag text NOT NULL,
        project_id bigint NOT NULL,
        environment text NOT NULL DEFAULT '',
        level text NOT NULL DEFAULT '',
        PRIMARY KEY (issue_id, bucket, user_tag, environment, level)
      ) PARTITION BY RANGE (bucket);
      CREATE INDEX alert_issue_minute_users_project_idx ON alerts.alert_issue_minute_users (project_id, bucket);

      -- A day for every day that holds minutes, today and the week ahead, named <table>_pYYYYMMDD (UTC).
      DO $$
      DECLARE day record;
      BEGIN
        FOR day IN
          SELECT DISTINCT 'alert_issue_minutes' AS parent, date_trunc('day', bucket, 'UTC') AS start FROM alerts.alert_issue_minutes_unpartitioned
          UNION
          SELECT DISTINCT 'alert_issue_minute_users', date_trunc('day', bucket, 'UTC') FROM alerts.alert_issue_minute_users_unpartitioned
          UNION
          SELECT parent, date_trunc('day', now(), 'UTC') + n * interval '24 hours'
          FROM unnest(ARRAY['alert_issue_minutes', 'alert_issue_minute_users']) AS parent, generate_series(0, 7) AS n
        LOOP
          EXECUTE format('CREATE TABLE alerts.%I PARTITION OF alerts.%I FOR VALUES FROM (%L) TO (%L)',
            day.parent || '_p' || to_char(day.start AT TIME ZONE 'UTC', 'YYYYMMDD'), day.parent, day.start, day.start + interval '24 hours');
        END LOOP;
      END $$;
      CREATE TABLE alerts.alert_issue_minutes_default PARTITION OF alerts.alert_issue_minutes DEFAULT;
      CREATE TABLE alerts.alert_issue_minute_users_default PARTITION OF alerts.alert_issue_minute_users DEFAULT;
      CREATE INDEX alert_issue_minutes_default_bucket_idx ON alerts.alert_issue_minutes_default (bucket);
      CREATE INDEX alert_issue_minute_users_default_bucket_idx ON alerts.alert_issue_minute_users_default (bucket);

      INSERT INTO alerts.alert_issue_minutes (issue_id, bucket, project_id, events, environment, level)
        SELECT issue_id, bucket, project_id, events, environment, level FROM alerts.alert_issue_minutes_unpartitioned;
      INSERT INTO alerts.alert_issue_minute_users (issue_id, bucket, user_tag, project_id, environment, level)
        SELECT issue_id, bucket, user_tag, project_id, environment, level FROM alerts.alert_issue_minute_users_unpartitioned;
      DROP TABLE alerts.alert_issue_minutes_unpartitioned, alerts.alert_issue_minute_users_unpartitioned;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE alerts.alert_issue_minutes RENAME TO alert_issue_minutes_partitioned;
      ALTER INDEX alerts.alert_issue_minutes_pkey RENAME TO alert_issue_minutes_partitioned_pkey;
      DROP INDEX alerts.alert_issue_minutes_project_idx;
      ALTER TABLE alerts.alert_issue_minute_users RENAME TO alert_issue_minute_users_partitioned;
      ALTER INDEX alerts.alert_issue_minute_users_pkey RENAME TO alert_issue_minute_users_partitioned_pkey;
      DROP INDEX alerts.alert_issue_minute_users_project_idx;

      CREATE TABLE alerts.alert_issue_minutes (
        issue_id bigint NOT NULL CONSTRAINT alert_issue_minutes_issue_id_fkey REFERENCES issues.issues (id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL,
        events integer NOT NULL,
        environment text NOT NULL DEFAULT '',
        level text NOT NULL DEFAULT '',
        PRIMARY KEY (issue_id, bucket, environment, level)
      );
      CREATE TABLE alerts.alert_issue_minute_users (
        issue_id bigint NOT NULL CONSTRAINT alert_issue_minute_users_issue_id_fkey REFERENCES issues.issues (id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        user_tag text NOT NULL,
        project_id bigint NOT NULL,
        environment text NOT NULL DEFAULT '',
        level text NOT NULL DEFAULT '',
        PRIMARY KEY (issue_id, bucket, user_tag, environment, level)
      );
      INSERT INTO alerts.alert_issue_minutes (issue_id, bucket, project_id, events, environment, level)
        SELECT issue_id, bucket, project_id, events, environment, level FROM alerts.alert_issue_minutes_partitioned;
      INSERT INTO alerts.alert_issue_minute_users (issue_id, bucket, user_tag, project_id, environment, level)
        SELECT issue_id, bucket, user_tag, project_id, environment, level FROM alerts.alert_issue_minute_users_partitioned;
      CREATE INDEX alert_issue_minutes_project_idx ON alerts.alert_issue_minutes (project_id, bucket);
      CREATE INDEX alert_issue_minutes_bucket_idx ON alerts.alert_issue_minutes (bucket);
      CREATE INDEX alert_issue_minute_users_project_idx ON alerts.alert_issue_minute_users (project_id, bucket);
      CREATE INDEX alert_issue_minute_users_bucket_idx ON alerts.alert_issue_minute_users (bucket);
      DROP TABLE alerts.alert_issue_minutes_partitioned, alerts.alert_issue_minute_users_partitioned;
    `);
  }
}
