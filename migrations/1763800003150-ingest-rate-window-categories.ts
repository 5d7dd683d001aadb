import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's rate limit is counted per data category, as Sentry's `X-Sentry-Rate-Limits` describes
 * it: a burst of errors limits errors, not the user reports of the same key, and user reports are
 * counted too. The windows so far counted errors.
 */
export class IngestRateWindowCategories1763800003150 implements MigrationInterface {
  name = 'IngestRateWindowCategories1763800003150';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest.ingest_rate_windows ADD COLUMN category text NOT NULL DEFAULT 'error';
      ALTER TABLE ingest.ingest_rate_windows DROP CONSTRAINT ingest_rate_windows_pkey;
      ALTER TABLE ingest.ingest_rate_windows ADD PRIMARY KEY (key_id, category, window_start);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DELETE FROM ingest.ingest_rate_windows WHERE category <> 'error';
      ALTER TABLE ingest.ingest_rate_windows DROP CONSTRAINT ingest_rate_windows_pkey;
      ALTER TABLE ingest.ingest_rate_windows ADD PRIMARY KEY (key_id, window_start);
      ALTER TABLE ingest.ingest_rate_windows DROP COLUMN category;
    `);
  }
}
