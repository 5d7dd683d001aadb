import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ingest queue is claimed in id order, skipping the few events put back for later, through its
 * primary key. The index on `available_at` only gave the planner a trap: right after a vacuum of
 * the nearly empty queue, its statistics say a handful of rows, and it would read every due event
 * through that index and sort them to take the first 200, a cost that grows with the backlog it
 * creates (a burst then took minutes to drain).
 */
export class IngestQueueClaimOrder1763800001100 implements MigrationInterface {
  name = 'IngestQueueClaimOrder1763800001100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ingest_queue_available_idx`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX ingest_queue_available_idx ON ingest_queue (available_at, id)`);
  }
}
