import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SDK ingestion and issues. The accept path only inserts (ingest_queue, ingest_outcomes), so
 * concurrent SDK requests never wait on each other; workers fold them into issues and rollups.
 */
export class IngestAndIssues1763800000200 implements MigrationInterface {
  name = 'IngestAndIssues1763800000200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest_queue (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        project_slug text NOT NULL,
        organization_id bigint NOT NULL,
        event_id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        client_ip text,
        payload jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        available_at timestamptz NOT NULL DEFAULT now(),
        last_error text
      );
      CREATE INDEX ingest_queue_available_idx ON ingest_queue (available_at, id);

      CREATE TABLE ingest_outcomes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        outcome text NOT NULL CHECK (outcome IN ('received', 'rejected', 'blacklisted', 'generated')),
        category text NOT NULL DEFAULT 'error',
        quantity integer NOT NULL DEFAULT 1,
        reason text,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE ingest_rate_windows (
        key_id bigint NOT NULL REFERENCES project_keys(id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key_id, window_start)
      );

      CREATE TABLE project_stats (
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        stat text NOT NULL,
        resolution text NOT NULL CHECK (resolution IN ('10s', '1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (project_id, stat, resolution, bucket)
      );

      CREATE TABLE issue_counters (
        project_id bigint PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        last_number integer NOT NULL
      );

      CREATE TABLE issues (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        fingerprint_hash text NOT NULL,
        short_id text NOT NULL,
        title text NOT NULL,
        culprit text NOT NULL DEFAULT '',
        level text NOT NULL,
        platform text NOT NULL,
        status text NOT NULL DEFAULT 'unresolved',
        substatus text,
        assignee jsonb,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        times_seen bigint NOT NULL DEFAULT 0,
        user_count integer NOT NULL DEFAULT 0,
        last_event_id text,
        UNIQUE (project_id, fingerprint_hash)
      );
      CREATE INDEX issues_project_last_seen_idx ON issues (project_id, last_seen DESC, id DESC);

      CREATE TABLE issue_users (
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        user_hash text NOT NULL,
        PRIMARY KEY (issue_id, user_hash)
      );

      CREATE TABLE error_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        UNIQUE (project_id, event_id)
      );
      CREATE INDEX error_events_issue_idx ON error_events (issue_id, occurred_at DESC, id DESC);
      CREATE INDEX error_events_received_idx ON error_events (received_at);

      CREATE TABLE tag_values (
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        key text NOT NULL,
        value text NOT NULL,
        times_seen bigint NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (project_id, key, value)
      );
      CREATE INDEX tag_values_recent_idx ON tag_values (project_id, key, last_seen DESC);

      CREATE TABLE event_users (
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        hash text NOT NULL,
        user_ident text,
        email text,
        username text,
        ip_address text,
        name text,
        date_created timestamptz NOT NULL,
        PRIMARY KEY (project_id, hash)
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE event_users, tag_values, error_events, issue_users, issues, issue_counters, project_stats, ingest_rate_windows, ingest_outcomes, ingest_queue;
    `);
  }
}
