import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project transfers (Sentry's project transfer): the link mailed to an owner of the receiving
 * organization is stored only as its SHA-256, expires, and is used at most once.
 */
export class ProjectTransfers1765730000000 implements MigrationInterface {
  name = 'ProjectTransfers1765730000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE projects.project_transfers (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects.projects (id) ON DELETE CASCADE,
        from_organization_id bigint NOT NULL,
        recipient_user_id bigint NOT NULL,
        recipient_email text NOT NULL,
        requested_by bigint,
        token_hash text NOT NULL UNIQUE,
        date_created timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX project_transfers_project_idx ON projects.project_transfers (project_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE projects.project_transfers`);
  }
}
