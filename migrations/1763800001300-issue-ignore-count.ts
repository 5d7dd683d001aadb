import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Ignored until N more events (users)" is measured from the issue's counts at the ignore, kept
 * on the issue, instead of counting its stored events since then on every batch (a scan of all of
 * a noisy issue's events). Issues ignored now get the event count their last ignore would have
 * noted; no ignore had a user condition before this.
 */
export class IssueIgnoreCount1763800001300 implements MigrationInterface {
  name = 'IssueIgnoreCount1763800001300';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues ADD COLUMN times_seen_at_ignore bigint, ADD COLUMN user_count_at_ignore integer;
      UPDATE issues i SET user_count_at_ignore = i.user_count, times_seen_at_ignore = i.times_seen - (
        SELECT count(*) FROM error_events e
        WHERE e.issue_id = i.id AND e.received_at >= (
          SELECT (ev.data->>'at')::timestamptz FROM events ev
          WHERE ev.stream_id = 'issue-' || i.id AND ev.event_type = 'issues.IssueIgnored'
          ORDER BY ev.version DESC LIMIT 1))
      WHERE i.status = 'ignored';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE issues DROP COLUMN times_seen_at_ignore, DROP COLUMN user_count_at_ignore`);
  }
}
