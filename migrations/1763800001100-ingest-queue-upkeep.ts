import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ingest queue is claimed in id order, skipping the few events put back for later, through its
 * primary key. The index on `available_at` only gave the planner a trap: right after a vacuum of
 * the nearly empty queue, its statistics say a handful of rows, and it would read every due event
 * through that index and sort them to take the first 200, a cost that grows with the backlog it
 * creates (a burst then took minutes to drain). The workers vacuum the queue tables often, so
 * vacuum does not truncate them: that would lock out accepts for tables that grow back at once.
 */
export class IngestQueueUpkeep1763800001100 implements MigrationInterface {
  name = 'IngestQueueUpkeep1763800001100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX ingest_queue_available_idx;
      ALTER TABLE ingest_queue SET (vacuum_truncate = false);
      ALTER TABLE ingest_outcomes SET (vacuum_truncate = false);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest_outcomes RESET (vacuum_truncate);
      ALTER TABLE ingest_queue RESET (vacuum_truncate);
      CREATE INDEX ingest_queue_available_idx ON ingest_queue (available_at, id);
    `);
  }
}
