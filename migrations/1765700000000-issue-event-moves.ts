import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merging, unmerging and deleting issues move (or delete) their stored events in bounded batches,
 * a transaction each: the decision commits first with a row here naming what is left to move, and
 * a step that resumes wherever it stopped works it off (the request that decided, or the worker
 * after a crash). Fingerprint hashes (`issue_hashes`) alone say which issue a hash groups into:
 * an unmerged issue may be created with a hash its source was created with, and an issue waiting
 * to be deleted keeps its row while new events of its hashes start a new issue, so the issue's own
 * creation hash is no longer unique. Unmerging finds a hash's events by the index on it, and
 * each event keeps the user it counted (the hash ingestion keys users by: the MD5 of the value of
 * its `user` tag after the kind), so an unmerge can move users with their events.
 */
export class IssueEventMoves1765700000000 implements MigrationInterface {
  name = 'IssueEventMoves1765700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issues.issue_event_moves (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('merge', 'unmerge', 'delete')),
        source_issue_id bigint NOT NULL,
        target_issue_id bigint,
        source_hash text NOT NULL,
        hashes text[],
        created_at timestamptz NOT NULL,
        CHECK ((kind = 'delete') = (target_issue_id IS NULL)),
        CHECK ((kind = 'unmerge') = (hashes IS NOT NULL))
      );
      CREATE INDEX issue_event_moves_source_idx ON issues.issue_event_moves (source_issue_id);
      CREATE INDEX issue_event_moves_target_idx ON issues.issue_event_moves (target_issue_id);
      ALTER TABLE issues.issues DROP CONSTRAINT issues_project_id_fingerprint_hash_key;
      CREATE INDEX error_events_issue_hash_idx ON issues.error_events (issue_id, fingerprint_hash);
      ALTER TABLE issues.error_events ADD COLUMN user_hash text;
      UPDATE issues.error_events e SET user_hash = md5(substr(u.tag, strpos(u.tag, ':') + 1))
      FROM (SELECT id, (SELECT substr(t, 6) FROM unnest(tags) AS t WHERE t LIKE 'user=%' LIMIT 1) AS tag FROM issues.error_events) u
      WHERE u.id = e.id AND u.tag IS NOT NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.error_events DROP COLUMN user_hash;
      DROP INDEX issues.error_events_issue_hash_idx;
      ALTER TABLE issues.issues ADD CONSTRAINT issues_project_id_fingerprint_hash_key UNIQUE (project_id, fingerprint_hash);
      DROP TABLE issues.issue_event_moves;
    `);
  }
}
