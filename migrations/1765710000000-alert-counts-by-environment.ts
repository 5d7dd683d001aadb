import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert counts per environment: a rule with an environment counts only that environment's events
 * and users (Sentry's frequency conditions query with the rule's environment), and a metric
 * alert's environment filters its value. Existing minutes belong to no environment (''), which
 * every rule without an environment still counts. And the rule stats read fires by rule and time.
 */
export class AlertCountsByEnvironment1765710000000 implements MigrationInterface {
  name = 'AlertCountsByEnvironment1765710000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE alerts.alert_issue_minutes ADD COLUMN environment text NOT NULL DEFAULT '';
      ALTER TABLE alerts.alert_issue_minutes DROP CONSTRAINT alert_issue_minutes_pkey, ADD PRIMARY KEY (issue_id, bucket, environment);
      ALTER TABLE alerts.alert_issue_minute_users ADD COLUMN environment text NOT NULL DEFAULT '';
      ALTER TABLE alerts.alert_issue_minute_users DROP CONSTRAINT alert_issue_minute_users_pkey, ADD PRIMARY KEY (issue_id, bucket, user_tag, environment);
      CREATE INDEX issue_alert_fires_rule_time_idx ON alerts.issue_alert_fires (rule_id, fired_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX alerts.issue_alert_fires_rule_time_idx;
      DELETE FROM alerts.alert_issue_minute_users WHERE environment <> '';
      DELETE FROM alerts.alert_issue_minutes WHERE environment <> '';
      ALTER TABLE alerts.alert_issue_minute_users DROP CONSTRAINT alert_issue_minute_users_pkey, ADD PRIMARY KEY (issue_id, bucket, user_tag);
      ALTER TABLE alerts.alert_issue_minute_users DROP COLUMN environment;
      ALTER TABLE alerts.alert_issue_minutes DROP CONSTRAINT alert_issue_minutes_pkey, ADD PRIMARY KEY (issue_id, bucket);
      ALTER TABLE alerts.alert_issue_minutes DROP COLUMN environment;
    `);
  }
}
