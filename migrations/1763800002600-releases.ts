import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Releases, their projects, deploys and commits (and the repositories commits belong to), and the source-map artifacts uploaded for them,
 * in the releases context's own schema. Uploaded bytes live here (bytea) so every process sees
 * them: chunks until their bundle is assembled, then each distinct file once per organization.
 */
export class Releases1763800002600 implements MigrationInterface {
  name = 'Releases1763800002600';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE SCHEMA IF NOT EXISTS releases;

      CREATE TABLE releases.releases (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        version text NOT NULL,
        ref text,
        url text,
        status text NOT NULL DEFAULT 'open',
        date_created timestamptz NOT NULL,
        date_started timestamptz,
        date_released timestamptz,
        UNIQUE (organization_id, version)
      );
      CREATE INDEX releases_organization_created_idx ON releases.releases (organization_id, date_created DESC, id DESC);

      CREATE TABLE releases.release_projects (
        release_id bigint NOT NULL REFERENCES releases.releases (id) ON DELETE CASCADE,
        project_id bigint NOT NULL,
        new_groups integer NOT NULL DEFAULT 0,
        events bigint NOT NULL DEFAULT 0,
        first_event timestamptz,
        last_event timestamptz,
        PRIMARY KEY (release_id, project_id)
      );
      CREATE INDEX release_projects_project_idx ON releases.release_projects (project_id, release_id);

      CREATE TABLE releases.deploys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        release_id bigint NOT NULL REFERENCES releases.releases (id) ON DELETE CASCADE,
        environment text NOT NULL,
        name text,
        url text,
        date_started timestamptz,
        date_finished timestamptz NOT NULL
      );
      CREATE INDEX deploys_release_idx ON releases.deploys (release_id, date_finished DESC, id DESC);

      CREATE TABLE releases.release_commits (
        release_id bigint NOT NULL REFERENCES releases.releases (id) ON DELETE CASCADE,
        position integer NOT NULL,
        commit_id text NOT NULL,
        repository text,
        message text,
        author_name text,
        author_email text,
        date_created timestamptz,
        PRIMARY KEY (release_id, commit_id)
      );

      CREATE TABLE releases.repositories (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        name text NOT NULL,
        url text,
        provider text,
        date_created timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX repositories_organization_name_idx ON releases.repositories (organization_id, lower(name));

      CREATE TABLE releases.chunks (
        organization_id bigint NOT NULL,
        checksum text NOT NULL,
        content bytea NOT NULL,
        uploaded_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, checksum)
      );
      CREATE INDEX chunks_uploaded_idx ON releases.chunks (uploaded_at);

      CREATE TABLE releases.files (
        organization_id bigint NOT NULL,
        checksum text NOT NULL,
        size integer NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (organization_id, checksum)
      );

      -- A release's individually uploaded files (the legacy release-file API) form one bundle per
      -- release and dist, whose checksum is \`release-files:\` and the SHA-1 of the two.
      CREATE TABLE releases.artifact_bundles (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        checksum text NOT NULL,
        release text,
        dist text,
        file_count integer NOT NULL,
        date_added timestamptz NOT NULL,
        UNIQUE (organization_id, checksum)
      );

      CREATE TABLE releases.artifact_bundle_projects (
        bundle_id bigint NOT NULL REFERENCES releases.artifact_bundles (id) ON DELETE CASCADE,
        project_id bigint NOT NULL,
        PRIMARY KEY (bundle_id, project_id)
      );
      CREATE INDEX artifact_bundle_projects_project_idx ON releases.artifact_bundle_projects (project_id, bundle_id);

      CREATE TABLE releases.artifacts (
        id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        bundle_id bigint NOT NULL REFERENCES releases.artifact_bundles (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL,
        path text NOT NULL,
        url text,
        type text NOT NULL,
        debug_id uuid,
        sourcemap text,
        file_checksum text NOT NULL,
        date_added timestamptz NOT NULL,
        PRIMARY KEY (bundle_id, path)
      );
      CREATE INDEX artifacts_debug_id_idx ON releases.artifacts (organization_id, debug_id) WHERE debug_id IS NOT NULL;
      CREATE INDEX artifacts_url_idx ON releases.artifacts (organization_id, url) WHERE url IS NOT NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP SCHEMA releases CASCADE`);
  }
}
