import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User feedback (Sentry's user reports) in the issues context's schema: one row per report, keyed
 * by project and report id so a resent report replaces the first; found by the event it is about,
 * and deleted with its project as the project's events are.
 */
export class UserReports1763800002900 implements MigrationInterface {
  name = 'UserReports1763800002900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE SCHEMA IF NOT EXISTS issues;
      CREATE TABLE issues.user_reports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        report_id text NOT NULL,
        event_id text,
        name text NOT NULL,
        email text NOT NULL,
        comments text NOT NULL,
        date_created timestamptz NOT NULL,
        UNIQUE (project_id, report_id)
      );
      CREATE INDEX user_reports_event_idx ON issues.user_reports (project_id, event_id);
      CREATE INDEX user_reports_recent_idx ON issues.user_reports (project_id, date_created DESC, id DESC);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE issues.user_reports;`);
  }
}
