import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A worker claims queued events with a committed lease before it processes them, counting the
 * claim in `claims`; the transaction that processes an event deletes its row. A row claimed again
 * was therefore abandoned by a processor that died, and one that keeps killing its processor ends
 * as a dead letter instead of a crash loop. A constant default: no rewrite of the queue.
 */
export class IngestQueueClaims1763800003140 implements MigrationInterface {
  name = 'IngestQueueClaims1763800003140';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.ingest_queue ADD COLUMN claims integer NOT NULL DEFAULT 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.ingest_queue DROP COLUMN claims`);
  }
}
