import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundFilters1763800000300 implements MigrationInterface {
  name = 'InboundFilters1763800000300';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE project_inbound_filters (
        project_id bigint PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        localhost boolean NOT NULL DEFAULT false,
        error_messages text[] NOT NULL DEFAULT '{}',
        releases text[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE project_inbound_filters`);
  }
}
