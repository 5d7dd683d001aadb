import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue search by tag (`environment:production`, `region:eu`, `has:region`): the issues holding a
 * tag value are found from the value, not by reading every issue's tags. Upserts at ingest change
 * only the counters and times, so they stay heap-only updates; a new value adds one entry.
 */
export class IssueSearchIndexes1763800002100 implements MigrationInterface {
  name = 'IssueSearchIndexes1763800002100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX issue_tag_values_key_value_idx ON issue_tag_values (key, value, issue_id);
      CREATE STATISTICS issue_tag_values_key_value_stats (mcv) ON key, value FROM issue_tag_values;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP STATISTICS issue_tag_values_key_value_stats; DROP INDEX issue_tag_values_key_value_idx;`);
  }
}
