import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert rules. Issue alert rules keep their last fire per issue (the action interval survives a
 * restart) and a history of fires; the per-minute event and user counts they and the metric alert
 * rules evaluate are kept at ingestion, only for projects that have such rules. Metric alert
 * rules carry their triggers as JSON and are claimed by workers through `next_evaluation_at`;
 * each keeps at most one incident that is not resolved, whose moves are events on its
 * `incident-<id>` stream and rows of its activity.
 */
export class Alerts1763800000800 implements MigrationInterface {
  name = 'Alerts1763800000800';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issue_alert_rules (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        environment text,
        action_match text NOT NULL CHECK (action_match IN ('all', 'any', 'none')),
        filter_match text NOT NULL CHECK (filter_match IN ('all', 'any', 'none')),
        frequency_minutes integer NOT NULL,
        conditions jsonb NOT NULL,
        filters jsonb NOT NULL,
        actions jsonb NOT NULL,
        owner text,
        created_by bigint,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX issue_alert_rules_project_idx ON issue_alert_rules (project_id, id);

      CREATE TABLE issue_alert_rule_issues (
        rule_id bigint NOT NULL REFERENCES issue_alert_rules(id) ON DELETE CASCADE,
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        last_fired_at timestamptz NOT NULL,
        quiet_until timestamptz NOT NULL,
        PRIMARY KEY (rule_id, issue_id)
      );
      CREATE INDEX issue_alert_rule_issues_issue_idx ON issue_alert_rule_issues (issue_id);

      CREATE TABLE issue_alert_fires (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        rule_id bigint NOT NULL REFERENCES issue_alert_rules(id) ON DELETE CASCADE,
        project_id bigint NOT NULL,
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        fired_at timestamptz NOT NULL,
        delivery_causes text[] NOT NULL
      );
      CREATE INDEX issue_alert_fires_rule_idx ON issue_alert_fires (rule_id, id DESC);
      CREATE INDEX issue_alert_fires_issue_idx ON issue_alert_fires (issue_id);

      -- The alert history lists the deliveries of each fire by their cause; only alerts' causes are indexed.
      CREATE INDEX webhook_deliveries_alert_cause_idx ON webhook_deliveries (cause) WHERE cause LIKE '%alert:%';

      CREATE TABLE alert_issue_minutes (
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        project_id bigint NOT NULL,
        events integer NOT NULL,
        PRIMARY KEY (issue_id, bucket)
      );
      CREATE INDEX alert_issue_minutes_project_idx ON alert_issue_minutes (project_id, bucket);
      CREATE INDEX alert_issue_minutes_bucket_idx ON alert_issue_minutes (bucket);

      CREATE TABLE alert_issue_minute_users (
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        user_tag text NOT NULL,
        project_id bigint NOT NULL,
        PRIMARY KEY (issue_id, bucket, user_tag)
      );
      CREATE INDEX alert_issue_minute_users_project_idx ON alert_issue_minute_users (project_id, bucket);
      CREATE INDEX alert_issue_minute_users_bucket_idx ON alert_issue_minute_users (bucket);

      CREATE SEQUENCE metric_alert_trigger_ids;

      CREATE TABLE metric_alert_rules (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        aggregate text NOT NULL,
        query text NOT NULL,
        time_window integer NOT NULL,
        threshold_type smallint NOT NULL CHECK (threshold_type IN (0, 1)),
        resolve_threshold double precision,
        project_ids bigint[] NOT NULL,
        environment text,
        owner text,
        triggers jsonb NOT NULL,
        created_by bigint,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        next_evaluation_at timestamptz NOT NULL,
        last_value double precision
      );
      CREATE INDEX metric_alert_rules_organization_idx ON metric_alert_rules (organization_id, id);
      CREATE INDEX metric_alert_rules_due_idx ON metric_alert_rules (next_evaluation_at);

      CREATE TABLE metric_alert_incident_counters (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        last_identifier integer NOT NULL
      );

      CREATE TABLE metric_alert_incidents (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        identifier integer NOT NULL,
        rule_id bigint NOT NULL REFERENCES metric_alert_rules(id) ON DELETE CASCADE,
        title text NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'warning', 'critical', 'resolved')),
        date_started timestamptz NOT NULL,
        date_detected timestamptz NOT NULL,
        date_closed timestamptz,
        UNIQUE (organization_id, identifier)
      );
      CREATE UNIQUE INDEX metric_alert_incidents_active_idx ON metric_alert_incidents (rule_id) WHERE status <> 'resolved';
      CREATE INDEX metric_alert_incidents_organization_idx ON metric_alert_incidents (organization_id, id DESC);
      CREATE INDEX metric_alert_incidents_rule_idx ON metric_alert_incidents (rule_id, id DESC);

      CREATE TABLE metric_alert_incident_activity (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        incident_id bigint NOT NULL REFERENCES metric_alert_incidents(id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        previous_status text,
        status text NOT NULL,
        value double precision NOT NULL,
        at timestamptz NOT NULL,
        delivery_causes text[] NOT NULL
      );
      CREATE INDEX metric_alert_incident_activity_incident_idx ON metric_alert_incident_activity (incident_id, id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE metric_alert_incident_activity, metric_alert_incidents, metric_alert_incident_counters, metric_alert_rules,
        alert_issue_minute_users, alert_issue_minutes, issue_alert_fires, issue_alert_rule_issues, issue_alert_rules;
      DROP SEQUENCE metric_alert_trigger_ids;
      DROP INDEX webhook_deliveries_alert_cause_idx;
    `);
  }
}
