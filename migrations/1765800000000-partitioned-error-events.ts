import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored events partitioned by the day (UTC) the service received them, so retention drops whole
 * days instead of deleting rows (see EventPartitionsRepository), and a read that names a period
 * reads only its days. A default partition takes what no day holds yet; the maintainer creates
 * days ahead and moves such strays into their day.
 *
 * A unique key on a partitioned table must hold the partition key, so `(project_id, event_id)` can
 * no longer be unique there: the ids of stored events move to `issues.event_ids`, unpartitioned and
 * small, which ingestion claims before storing (an SDK's retry stores nothing more) and retention
 * prunes by the same received time. The primary key becomes `(id, received_at)`; ids keep coming
 * from one sequence, so `id` alone still names an event, and a claim holds its event's id and
 * day: a lookup by event id reads one day's primary key, and the partitions need no index of
 * `(project_id, event_id)`.
 */
export class PartitionedErrorEvents1765800000000 implements MigrationInterface {
  name = 'PartitionedErrorEvents1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.error_events RENAME TO error_events_unpartitioned;
      ALTER INDEX issues.error_events_pkey RENAME TO error_events_unpartitioned_pkey;
      DROP INDEX issues.error_events_issue_idx, issues.error_events_project_time_idx, issues.error_events_received_idx, issues.error_events_issue_hash_idx;
      ALTER TABLE issues.error_events_unpartitioned DROP CONSTRAINT error_events_project_id_event_id_key;

      CREATE TABLE issues.error_events (
        id bigint GENERATED ALWAYS AS IDENTITY,
        project_id bigint NOT NULL REFERENCES projects.projects (id) ON DELETE CASCADE,
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        data json NOT NULL,
        unhandled boolean NOT NULL DEFAULT false,
        tags text[],
        fingerprint_hash text,
        user_hash text,
        PRIMARY KEY (id, received_at)
      ) PARTITION BY RANGE (received_at);
      DO $$ BEGIN
        ALTER TABLE issues.error_events ALTER COLUMN data SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END $$;
      CREATE INDEX error_events_issue_idx ON issues.error_events (issue_id, occurred_at DESC, id DESC);
      CREATE INDEX error_events_project_time_idx ON issues.error_events (project_id, occurred_at, id) INCLUDE (issue_id);
      CREATE INDEX error_events_issue_hash_idx ON issues.error_events (issue_id, fingerprint_hash);

      -- A day for every day that holds events, named error_events_pYYYYMMDD (UTC).
      DO $$
      DECLARE day timestamptz;
      BEGIN
        FOR day IN SELECT DISTINCT date_trunc('day', received_at, 'UTC') FROM issues.error_events_unpartitioned LOOP
          EXECUTE format('CREATE TABLE issues.%I PARTITION OF issues.error_events FOR VALUES FROM (%L) TO (%L)',
            'error_events_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), day, day + interval '24 hours');
        END LOOP;
      END $$;
      CREATE TABLE issues.error_events_default PARTITION OF issues.error_events DEFAULT;
      CREATE INDEX error_events_default_received_idx ON issues.error_events_default (received_at);

      INSERT INTO issues.error_events (id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash)
        OVERRIDING SYSTEM VALUE
        SELECT id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash FROM issues.error_events_unpartitioned;
      SELECT setval(pg_get_serial_sequence('issues.error_events', 'id'), max(id)) FROM issues.error_events HAVING max(id) IS NOT NULL;

      CREATE TABLE issues.event_ids (
        project_id bigint NOT NULL,
        event_id text NOT NULL,
        received_at timestamptz NOT NULL,
        id bigint NOT NULL,
        PRIMARY KEY (project_id, event_id)
      );
      CREATE INDEX event_ids_received_idx ON issues.event_ids (received_at);
      INSERT INTO issues.event_ids (project_id, event_id, received_at, id) SELECT project_id, event_id, received_at, id FROM issues.error_events_unpartitioned;

      DROP TABLE issues.error_events_unpartitioned;
      DO $$ BEGIN
        EXECUTE format('ALTER SEQUENCE %s RENAME TO error_events_id_seq', pg_get_serial_sequence('issues.error_events', 'id'));
      END $$;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.error_events RENAME TO error_events_partitioned;
      ALTER INDEX issues.error_events_pkey RENAME TO error_events_partitioned_pkey;
      DROP INDEX issues.error_events_issue_idx, issues.error_events_project_time_idx, issues.error_events_issue_hash_idx;

      CREATE TABLE issues.error_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects.projects (id) ON DELETE CASCADE,
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        data json NOT NULL,
        unhandled boolean NOT NULL DEFAULT false,
        tags text[],
        fingerprint_hash text,
        user_hash text,
        UNIQUE (project_id, event_id)
      );
      DO $$ BEGIN
        ALTER TABLE issues.error_events ALTER COLUMN data SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END $$;
      INSERT INTO issues.error_events (id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash)
        OVERRIDING SYSTEM VALUE
        SELECT id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash FROM issues.error_events_partitioned
        ORDER BY id
        ON CONFLICT (project_id, event_id) DO NOTHING;
      SELECT setval(pg_get_serial_sequence('issues.error_events', 'id'), max(id)) FROM issues.error_events HAVING max(id) IS NOT NULL;
      CREATE INDEX error_events_issue_idx ON issues.error_events (issue_id, occurred_at DESC, id DESC);
      CREATE INDEX error_events_received_idx ON issues.error_events (received_at);
      CREATE INDEX error_events_project_time_idx ON issues.error_events (project_id, occurred_at, id) INCLUDE (issue_id);
      CREATE INDEX error_events_issue_hash_idx ON issues.error_events (issue_id, fingerprint_hash);

      DROP TABLE issues.error_events_partitioned, issues.event_ids;
      DO $$ BEGIN
        EXECUTE format('ALTER SEQUENCE %s RENAME TO error_events_id_seq', pg_get_serial_sequence('issues.error_events', 'id'));
      END $$;
    `);
  }
}
