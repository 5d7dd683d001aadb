import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outcomes as Sentry records them: every item counted by data category, outcome (accepted,
 * filtered, rate_limited, invalid, abuse, client_discard, cardinality_limited) and reason, folded
 * into an hourly and a daily rollup per organization and project that the stats API reads.
 *
 * Admission outcomes still waiting in the queue are translated: `received` was counted for every
 * item at admission and is now counted for error events when they are stored (their queue rows
 * are still there), `rejected` becomes rate_limited or invalid by its reason. The queue keeps each
 * event's category, decided once at admission.
 */
export class OutcomesByCategory1764200000000 implements MigrationInterface {
  name = 'OutcomesByCategory1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ingest.ingest_outcomes DROP CONSTRAINT IF EXISTS ingest_outcomes_outcome_check;
      DELETE FROM ingest.ingest_outcomes WHERE outcome <> 'rejected';
      UPDATE ingest.ingest_outcomes SET
        outcome = CASE reason WHEN 'key_quota' THEN 'rate_limited' ELSE 'invalid' END,
        reason = CASE reason WHEN 'key_quota' THEN 'key_quota' WHEN 'duplicate_report' THEN 'duplicate' ELSE 'payload' END,
        category = CASE category WHEN 'user_report' THEN 'feedback' ELSE category END;
      ALTER TABLE ingest.ingest_outcomes
        ADD CONSTRAINT ingest_outcomes_outcome_check
          CHECK (outcome IN ('accepted', 'filtered', 'rate_limited', 'invalid', 'abuse', 'client_discard', 'cardinality_limited')),
        ALTER COLUMN category DROP DEFAULT,
        ALTER COLUMN quantity TYPE bigint,
        ADD COLUMN times_seen integer NOT NULL DEFAULT 1,
        ADD COLUMN organization_id bigint;
      UPDATE ingest.ingest_outcomes o SET organization_id = p.organization_id FROM projects.projects p WHERE p.id = o.project_id;
      ALTER TABLE ingest.ingest_outcomes ALTER COLUMN organization_id SET NOT NULL;

      ALTER TABLE ingest.ingest_queue ADD COLUMN category text NOT NULL DEFAULT 'error';
      ALTER TABLE ingest.ingest_dead_letters ADD COLUMN category text NOT NULL DEFAULT 'error';

      CREATE TABLE ingest.outcome_stats (
        organization_id bigint NOT NULL,
        resolution text NOT NULL CHECK (resolution IN ('1h', '1d')),
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL REFERENCES projects.projects(id) ON DELETE CASCADE,
        category text NOT NULL,
        outcome text NOT NULL,
        reason text NOT NULL DEFAULT '',
        quantity bigint NOT NULL,
        times_seen bigint NOT NULL,
        PRIMARY KEY (organization_id, resolution, bucket, project_id, category, outcome, reason)
      );
      CREATE INDEX outcome_stats_project_idx ON ingest.outcome_stats (project_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE ingest.outcome_stats;
      ALTER TABLE ingest.ingest_dead_letters DROP COLUMN category;
      ALTER TABLE ingest.ingest_queue DROP COLUMN category;
      ALTER TABLE ingest.ingest_outcomes DROP CONSTRAINT ingest_outcomes_outcome_check, DROP COLUMN organization_id, DROP COLUMN times_seen;
      ALTER TABLE ingest.ingest_outcomes ALTER COLUMN category SET DEFAULT 'error', ALTER COLUMN quantity TYPE integer;
      DELETE FROM ingest.ingest_outcomes WHERE outcome NOT IN ('rate_limited', 'invalid');
      UPDATE ingest.ingest_outcomes SET outcome = 'rejected';
      ALTER TABLE ingest.ingest_outcomes ADD CONSTRAINT ingest_outcomes_outcome_check CHECK (outcome IN ('received', 'rejected', 'blacklisted', 'generated'));
    `);
  }
}
