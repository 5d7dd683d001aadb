import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue ownership rules (Sentry's ProjectOwnership): one row per project once its rules were first
 * saved; a project without one has Sentry's defaults (no rules, fall through, auto-assign to the
 * issue owner). `schema` is the parsed rules with each owner's id, kept beside the text the user wrote.
 */
export class ProjectOwnership1765720000000 implements MigrationInterface {
  name = 'ProjectOwnership1765720000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE projects.project_ownership (
        project_id bigint PRIMARY KEY REFERENCES projects.projects (id) ON DELETE CASCADE,
        raw text,
        schema jsonb,
        fallthrough boolean NOT NULL DEFAULT true,
        auto_assignment boolean NOT NULL DEFAULT true,
        date_created timestamptz NOT NULL,
        last_updated timestamptz NOT NULL
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE projects.project_ownership`);
  }
}
