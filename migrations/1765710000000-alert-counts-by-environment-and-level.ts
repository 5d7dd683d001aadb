import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert counts per environment and level: a rule with an environment counts only that
 * environment's events and users (Sentry's frequency conditions query with the rule's
 * environment), and a metric alert's environment and query (`environment:` and `level:`) filter
 * its value. Existing minutes belong to no environment and no level (''), which every rule without
 * such a filter still counts. And the rule stats read fires by rule and time.
 */
export class AlertCountsByEnvironmentAndLevel1765710000000 implements MigrationInterface {
  name = 'AlertCountsByEnvironmentAndLevel1765710000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE alerts.alert_issue_minutes ADD COLUMN environment text NOT NULL DEFAULT '', ADD COLUMN level text NOT NULL DEFAULT '';
      ALTER TABLE alerts.alert_issue_minutes DROP CONSTRAINT alert_issue_minutes_pkey, ADD PRIMARY KEY (issue_id, bucket, environment, level);
      ALTER TABLE alerts.alert_issue_minute_users ADD COLUMN environment text NOT NULL DEFAULT '', ADD COLUMN level text NOT NULL DEFAULT '';
      ALTER TABLE alerts.alert_issue_minute_users DROP CONSTRAINT alert_issue_minute_users_pkey,
        ADD PRIMARY KEY (issue_id, bucket, user_tag, environment, level);
      CREATE INDEX issue_alert_fires_rule_time_idx ON alerts.issue_alert_fires (rule_id, fired_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX alerts.issue_alert_fires_rule_time_idx;
      -- The minutes are short-lived counts: those of an environment or a level go, rather than merge.
      DELETE FROM alerts.alert_issue_minute_users WHERE environment <> '' OR level <> '';
      DELETE FROM alerts.alert_issue_minutes WHERE environment <> '' OR level <> '';
      ALTER TABLE alerts.alert_issue_minute_users DROP CONSTRAINT alert_issue_minute_users_pkey, ADD PRIMARY KEY (issue_id, bucket, user_tag);
      ALTER TABLE alerts.alert_issue_minute_users DROP COLUMN environment, DROP COLUMN level;
      ALTER TABLE alerts.alert_issue_minutes DROP CONSTRAINT alert_issue_minutes_pkey, ADD PRIMARY KEY (issue_id, bucket);
      ALTER TABLE alerts.alert_issue_minutes DROP COLUMN environment, DROP COLUMN level;
    `);
  }
}
