import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event attachments (the SDK's `attachment` items and minidumps) in the issues context, beside the
 * events they belong to, and the organization setting that decides who may download them.
 *
 * An attachment names its event by project and event id, not by a foreign key: it may arrive
 * before its event is processed, or in an envelope of its own after it. Its bytes are kept in
 * chunks of at most 1 MiB, so a reader streams them chunk by chunk. The unique key makes an SDK's
 * retry of the same file for the same event store nothing more (and charge nothing twice).
 * `identity.organizations.attachments_role` is Sentry's `sentry:attachments_role` (default member).
 */
export class EventAttachments1764400000000 implements MigrationInterface {
  name = 'EventAttachments1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issues.event_attachments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        project_id bigint NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        name text NOT NULL,
        content_type text NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        sha1 text NOT NULL,
        date_created timestamptz NOT NULL,
        UNIQUE (project_id, event_id, type, name, sha1)
      );
      CREATE INDEX event_attachments_created_idx ON issues.event_attachments (date_created);
      CREATE TABLE issues.event_attachment_chunks (
        attachment_id bigint NOT NULL REFERENCES issues.event_attachments (id) ON DELETE CASCADE,
        position integer NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (attachment_id, position)
      );
      ALTER TABLE identity.organizations ADD COLUMN attachments_role text NOT NULL DEFAULT 'member';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.organizations DROP COLUMN attachments_role;
      DROP TABLE issues.event_attachment_chunks;
      DROP TABLE issues.event_attachments;
    `);
  }
}
