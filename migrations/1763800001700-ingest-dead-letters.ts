import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accepted events that processing could not store, kept as the SDK sent them with why they
 * failed, until an administrator retries them (back into the queue) or deletes them. They go with
 * their project.
 */
export class IngestDeadLetters1763800001700 implements MigrationInterface {
  name = 'IngestDeadLetters1763800001700';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest_dead_letters (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        project_slug text NOT NULL,
        organization_id bigint NOT NULL,
        event_id text NOT NULL,
        received_at timestamptz NOT NULL,
        client_ip text,
        payload text NOT NULL,
        attempts integer NOT NULL,
        reason text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ingest_dead_letters_project_idx ON ingest_dead_letters (project_id, id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ingest_dead_letters`);
  }
}
