import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stats rollups partitioned by the day (UTC) of their bucket, so retention drops whole days
 * instead of deleting rows (see StatsPartitionsRepository). `ingest.project_stats` is first split by
 * resolution, as each is kept for its own time (10-second buckets a day, the others
 * EVENT_RETENTION_DAYS), then each resolution by day; `ingest.outcome_stats` by day. Every table of
 * days has a default partition for what no day holds yet; the maintainer creates days ahead and
 * moves such strays into their day. The primary keys already hold the partition keys, so every
 * upsert's ON CONFLICT stays as it was. Days are created for the days the rows span, today and the
 * week ahead; a day is 24 hours from 00:00 UTC whatever the session's time zone.
 */
export class PartitionedIngestStats1765910000000 implements MigrationInterface {
  name = 'PartitionedIngestStats1765910000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest.project_stats RENAME TO project_stats_unpartitioned;
      ALTER INDEX ingest.project_stats_pkey RENAME TO project_stats_unpartitioned_pkey;
      DROP INDEX ingest.project_stats_age_idx;
      ALTER TABLE ingest.outcome_stats RENAME TO outcome_stats_unpartitioned;
      ALTER INDEX ingest.outcome_stats_pkey RENAME TO outcome_stats_unpartitioned_pkey;
      DROP INDEX ingest.outcome_stats_age_idx, ingest.outcome_stats_project_idx;

      CREATE TABLE ingest.project_stats (
        project_id bigint NOT NULL CONSTRAINT project_stats_project_id_fkey REFERENCES projects.projects (id) ON DELETE CASCADE,
        stat text NOT NULL,
        resolution text NOT NULL CONSTRAINT project_stats_resolution_check CHECK (resolution IN ('10s', '1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (project_id, stat, resolution, bucket)
      ) PARTITION BY LIST (resolution);
      CREATE TABLE ingest.project_stats_10s PARTITION OF ingest.project_stats FOR VALUES IN ('10s') PARTITION BY RANGE (bucket);
      CREATE TABLE ingest.project_stats_1h PARTITION OF ingest.project_stats FOR VALUES IN ('1h') PARTITION BY RANGE (bucket);
      CREATE TABLE ingest.project_stats_1d PARTITION OF ingest.project_stats FOR VALUES IN ('1d') PARTITION BY RANGE (bucket);

      CREATE TABLE ingest.outcome_stats (
        organization_id bigint NOT NULL,
        resolution text NOT NULL CONSTRAINT outcome_stats_resolution_check CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL CONSTRAINT outcome_stats_project_id_fkey REFERENCES projects.projects (id) ON DELETE CASCADE,
        category text NOT NULL,
        outcome text NOT NULL,
        reason text NOT NULL DEFAULT '',
        quantity bigint NOT NULL,
        times_seen bigint NOT NULL,
        PRIMARY KEY (organization_id, resolution, bucket, project_id, category, outcome, reason)
      ) PARTITION BY RANGE (bucket);
      CREATE INDEX outcome_stats_project_idx ON ingest.outcome_stats (project_id);

      -- A day for every day that holds rows, today and the week ahead, named <table>_pYYYYMMDD (UTC).
      DO $$
      DECLARE day record;
      BEGIN
        FOR day IN
          SELECT DISTINCT 'project_stats_' || resolution AS parent, date_trunc('day', bucket, 'UTC') AS start FROM ingest.project_stats_unpartitioned
          UNION
          SELECT DISTINCT 'outcome_stats', date_trunc('day', bucket, 'UTC') FROM ingest.outcome_stats_unpartitioned
          UNION
          SELECT parent, date_trunc('day', now(), 'UTC') + n * interval '24 hours'
          FROM unnest(ARRAY['project_stats_10s', 'project_stats_1h', 'project_stats_1d', 'outcome_stats']) AS parent, generate_series(0, 7) AS n
        LOOP
          EXECUTE format('CREATE TABLE ingest.%I PARTITION OF ingest.%I FOR VALUES FROM (%L) TO (%L)',
            day.parent || '_p' || to_char(day.start AT TIME ZONE 'UTC', 'YYYYMMDD'), day.parent, day.start, day.start + interval '24 hours');
        END LOOP;
      END $$;
      CREATE TABLE ingest.project_stats_10s_default PARTITION OF ingest.project_stats_10s DEFAULT;
      CREATE TABLE ingest.project_stats_1h_default PARTITION OF ingest.project_stats_1h DEFAULT;
      CREATE TABLE ingest.project_stats_1d_default PARTITION OF ingest.project_stats_1d DEFAULT;
      CREATE TABLE ingest.outcome_stats_default PARTITION OF ingest.outcome_stats DEFAULT;
      CREATE INDEX project_stats_10s_default_bucket_idx ON ingest.project_stats_10s_default (bucket);
      CREATE INDEX project_stats_1h_default_bucket_idx ON ingest.project_stats_1h_default (bucket);
      CREATE INDEX project_stats_1d_default_bucket_idx ON ingest.project_stats_1d_default (bucket);
      CREATE INDEX outcome_stats_default_bucket_idx ON ingest.outcome_stats_default (bucket);

      INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count)
        SELECT project_id, stat, resolution, bucket, count FROM ingest.project_stats_unpartitioned;
      INSERT INTO ingest.outcome_stats (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
        SELECT organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen FROM ingest.outcome_stats_unpartitioned;
      DROP TABLE ingest.project_stats_unpartitioned, ingest.outcome_stats_unpartitioned;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest.project_stats RENAME TO project_stats_partitioned;
      ALTER INDEX ingest.project_stats_pkey RENAME TO project_stats_partitioned_pkey;
      ALTER TABLE ingest.outcome_stats RENAME TO outcome_stats_partitioned;
      ALTER INDEX ingest.outcome_stats_pkey RENAME TO outcome_stats_partitioned_pkey;
      DROP INDEX ingest.outcome_stats_project_idx;

      CREATE TABLE ingest.project_stats (
        project_id bigint NOT NULL CONSTRAINT project_stats_project_id_fkey REFERENCES projects.projects (id) ON DELETE CASCADE,
        stat text NOT NULL,
        resolution text NOT NULL CONSTRAINT project_stats_resolution_check CHECK (resolution IN ('10s', '1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (project_id, stat, resolution, bucket)
      );
      CREATE TABLE ingest.outcome_stats (
        organization_id bigint NOT NULL,
        resolution text NOT NULL CONSTRAINT outcome_stats_resolution_check CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL CONSTRAINT outcome_stats_project_id_fkey REFERENCES projects.projects (id) ON DELETE CASCADE,
        category text NOT NULL,
        outcome text NOT NULL,
        reason text NOT NULL DEFAULT '',
        quantity bigint NOT NULL,
        times_seen bigint NOT NULL,
        PRIMARY KEY (organization_id, resolution, bucket, project_id, category, outcome, reason)
      );
      INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count)
        SELECT project_id, stat, resolution, bucket, count FROM ingest.project_stats_partitioned;
      INSERT INTO ingest.outcome_stats (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
        SELECT organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen FROM ingest.outcome_stats_partitioned;
      CREATE INDEX project_stats_age_idx ON ingest.project_stats (resolution, bucket);
      CREATE INDEX outcome_stats_project_idx ON ingest.outcome_stats (project_id);
      CREATE INDEX outcome_stats_age_idx ON ingest.outcome_stats (bucket);
      DROP TABLE ingest.project_stats_partitioned, ingest.outcome_stats_partitioned;
    `);
  }
}
