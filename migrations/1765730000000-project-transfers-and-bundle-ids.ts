import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project transfers (Sentry's project transfer): the link mailed to an owner of the receiving
 * organization is stored only as its SHA-256, expires, and is used at most once. And each artifact
 * bundle's id (Sentry's `bundleId`): the manifest's `debug_id` (or `bundle_id`) as sentry-cli
 * writes it; bundles stored before, and bundles without one, take a UUID made of their checksum's
 * first 32 hex digits, as new ones do (`bundleIdOf`).
 */
export class ProjectTransfersAndBundleIds1765730000000 implements MigrationInterface {
  name = 'ProjectTransfersAndBundleIds1765730000000';

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

      ALTER TABLE releases.artifact_bundles ADD COLUMN bundle_id uuid;
      UPDATE releases.artifact_bundles SET bundle_id = substr(replace(checksum, 'release-files:', ''), 1, 32)::uuid;
      ALTER TABLE releases.artifact_bundles ALTER COLUMN bundle_id SET NOT NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE releases.artifact_bundles DROP COLUMN bundle_id; DROP TABLE projects.project_transfers`);
  }
}
