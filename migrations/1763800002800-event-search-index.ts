import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event search reads a project's events in a time range: this index finds them newest first in
 * the list's own order (time, then id), so a page stops after its rows, and carries the issue id
 * so that counts per issue are answered from the index alone.
 */
export class EventSearchIndex1763800002800 implements MigrationInterface {
  name = 'EventSearchIndex1763800002800';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX error_events_project_time_idx ON error_events (project_id, occurred_at, id) INCLUDE (issue_id);`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX error_events_project_time_idx;`);
  }
}
