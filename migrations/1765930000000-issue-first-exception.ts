import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An issue keeps the main exception (type and value) of the event that made it, as Sentry keeps
 * a group's metadata: the issue stream read it from each listed issue's first event, which for an
 * issue first seen months ago meant a probe of every kept day. Issues made before take it from
 * their earliest stored event (received, as every event, at most a minute before it occurred and
 * 30 days after: the days that can hold it).
 */
export class IssueFirstException1765930000000 implements MigrationInterface {
  name = 'IssueFirstException1765930000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.issues ADD COLUMN first_exception jsonb;
      UPDATE issues.issues i SET first_exception = (
        SELECT jsonb_build_object('type', x.exception->>'type', 'value', x.exception->>'value')
        FROM issues.error_events ee
        CROSS JOIN LATERAL (SELECT COALESCE(ee.data->'exceptions'->-1, ee.data->'exception'->'values'->-1, ee.data->'exception'->-1) AS exception) x
        WHERE ee.issue_id = i.id AND ee.received_at >= i.first_seen - interval '1 minute' AND ee.received_at < i.first_seen + interval '30 days'
          AND x.exception IS NOT NULL
        ORDER BY ee.occurred_at, ee.id LIMIT 1);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE issues.issues DROP COLUMN first_exception`);
  }
}
