import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queued event items are compressed in their row with lz4 where the server has it: a few µs of
 * PostgreSQL's CPU per event against a third of the bytes in the WAL that every durable accept
 * pays for (about 6 KB → 2.4 KB for a typical event). Without lz4 (pglz is several times slower,
 * and embedded PGlite has only pglz) they stay uncompressed, as before. Vacuum leaves the queue's
 * TOAST table untruncated too, as it does the queue itself: the workers vacuum it often.
 */
export class IngestQueueCompression1763800001200 implements MigrationInterface {
  name = 'IngestQueueCompression1763800001200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest_queue ALTER COLUMN payload SET STORAGE MAIN;
      ALTER TABLE ingest_queue SET (toast.vacuum_truncate = false);
      DO $$ BEGIN
        ALTER TABLE ingest_queue ALTER COLUMN payload SET COMPRESSION lz4;
        ALTER TABLE ingest_queue RESET (toast_tuple_target);
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END $$;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest_queue SET (toast_tuple_target = 8160);
      ALTER TABLE ingest_queue ALTER COLUMN payload SET COMPRESSION default;
      ALTER TABLE ingest_queue RESET (toast.vacuum_truncate);
      ALTER TABLE ingest_queue ALTER COLUMN payload SET STORAGE EXTENDED;
    `);
  }
}
