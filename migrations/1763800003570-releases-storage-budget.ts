import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-organization budget of stored upload bytes, and bundles attached to more than one release.
 *
 * `organization_storage` counts the bytes an organization keeps in `chunks` and `files`; it is
 * changed in the transaction that stores or deletes them, so it never drifts (backfilled here).
 * A bundle row is now a bundle as attached to one release and dist: assembling a known bundle for
 * another release adds a row sharing its files, so the unique key takes release and dist, and files
 * are found by checksum to free the ones no artifact uses any more.
 */
export class ReleasesStorageBudget1763800003570 implements MigrationInterface {
  name = 'ReleasesStorageBudget1763800003570';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE releases.organization_storage (
        organization_id bigint PRIMARY KEY,
        stored_bytes bigint NOT NULL CHECK (stored_bytes >= 0)
      );
      INSERT INTO releases.organization_storage (organization_id, stored_bytes)
      SELECT organization_id, sum(bytes) FROM (
        SELECT organization_id, octet_length(content)::bigint AS bytes FROM releases.chunks
        UNION ALL SELECT organization_id, size::bigint FROM releases.files
      ) stored GROUP BY organization_id;

      ALTER TABLE releases.artifact_bundles DROP CONSTRAINT artifact_bundles_organization_id_checksum_key;
      ALTER TABLE releases.artifact_bundles ADD CONSTRAINT artifact_bundles_checksum_release_key UNIQUE NULLS NOT DISTINCT (organization_id, checksum, release, dist);
      CREATE INDEX artifacts_file_idx ON releases.artifacts (organization_id, file_checksum);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX releases.artifacts_file_idx;
      DELETE FROM releases.artifact_bundles b WHERE EXISTS (
        SELECT 1 FROM releases.artifact_bundles o WHERE o.organization_id = b.organization_id AND o.checksum = b.checksum AND o.id < b.id
      );
      ALTER TABLE releases.artifact_bundles DROP CONSTRAINT artifact_bundles_checksum_release_key;
      ALTER TABLE releases.artifact_bundles ADD CONSTRAINT artifact_bundles_organization_id_checksum_key UNIQUE (organization_id, checksum);
      DROP TABLE releases.organization_storage;
    `);
  }
}
