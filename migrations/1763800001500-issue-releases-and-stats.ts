import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An issue keeps the releases of its first and newest events that named one, with those events'
 * times (events arrive in any order), and hourly and daily event counts for its graphs (Sentry's
 * `firstRelease`, `lastRelease` and `stats`), kept at ingest time. Existing issues get them from
 * their stored events. The issue's last event id goes: nothing read it (the latest event is read
 * from the stored events).
 */
export class IssueReleasesAndStats1763800001500 implements MigrationInterface {
  name = 'IssueReleasesAndStats1763800001500';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues ADD COLUMN first_release text, ADD COLUMN first_release_at timestamptz,
        ADD COLUMN last_release text, ADD COLUMN last_release_at timestamptz, DROP COLUMN last_event_id;
      CREATE TABLE issue_stats (
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        resolution text NOT NULL CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (issue_id, resolution, bucket)
      );
      CREATE INDEX issue_stats_bucket_idx ON issue_stats (bucket);
      INSERT INTO issue_stats (issue_id, resolution, bucket, count)
        SELECT issue_id, r.resolution, date_trunc(r.unit, occurred_at, 'UTC'), count(*)
        FROM error_events, (VALUES ('1h', 'hour'), ('1d', 'day')) AS r (resolution, unit)
        GROUP BY 1, 2, 3;
      UPDATE issues i SET (first_release, first_release_at) = (
          SELECT e.data->>'release', e.occurred_at FROM error_events e
          WHERE e.issue_id = i.id AND e.data->>'release' IS NOT NULL ORDER BY e.occurred_at, e.id LIMIT 1),
        (last_release, last_release_at) = (
          SELECT e.data->>'release', e.occurred_at FROM error_events e
          WHERE e.issue_id = i.id AND e.data->>'release' IS NOT NULL ORDER BY e.occurred_at DESC, e.id DESC LIMIT 1);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE issue_stats;
      ALTER TABLE issues DROP COLUMN first_release, DROP COLUMN first_release_at, DROP COLUMN last_release, DROP COLUMN last_release_at,
        ADD COLUMN last_event_id text;
    `);
  }
}
