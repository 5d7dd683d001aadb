import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The `accepted` outcome: items kept at admission (sessions), counted as Sentry counts them. */
export class OutcomeAccepted1764600000100 implements MigrationInterface {
  name = 'OutcomeAccepted1764600000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest.ingest_outcomes DROP CONSTRAINT ingest_outcomes_outcome_check;
      ALTER TABLE ingest.ingest_outcomes ADD CONSTRAINT ingest_outcomes_outcome_check
        CHECK (outcome IN ('received', 'accepted', 'rejected', 'blacklisted', 'generated'));
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DELETE FROM ingest.ingest_outcomes WHERE outcome = 'accepted';
      ALTER TABLE ingest.ingest_outcomes DROP CONSTRAINT ingest_outcomes_outcome_check;
      ALTER TABLE ingest.ingest_outcomes ADD CONSTRAINT ingest_outcomes_outcome_check
        CHECK (outcome IN ('received', 'rejected', 'blacklisted', 'generated'));
    `);
  }
}
