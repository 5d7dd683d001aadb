import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cron monitors (Sentry's Crons) in their own schema. A monitor belongs to one project; each
 * environment it checks in from has its own state row (the read model of its event stream) with
 * the times the sweep looks at, and check-ins are kept per monitor. Issues learn their type, so a
 * monitor's failure issue is of Sentry's cron category.
 */
export class Monitors1764500000000 implements MigrationInterface {
  name = 'Monitors1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE SCHEMA IF NOT EXISTS monitors;
      CREATE TABLE monitors.monitors (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guid uuid NOT NULL UNIQUE,
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        project_id bigint NOT NULL REFERENCES projects.projects(id) ON DELETE CASCADE,
        slug text NOT NULL,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        is_muted boolean NOT NULL DEFAULT false,
        config jsonb NOT NULL,
        date_created timestamptz NOT NULL,
        UNIQUE (organization_id, slug)
      );
      CREATE INDEX monitors_project_idx ON monitors.monitors (project_id);

      CREATE TABLE monitors.monitor_environments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        monitor_id bigint NOT NULL REFERENCES monitors.monitors(id) ON DELETE CASCADE,
        environment text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ok', 'error')),
        is_muted boolean NOT NULL DEFAULT false,
        last_checkin timestamptz,
        next_checkin timestamptz,
        next_checkin_latest timestamptz,
        date_created timestamptz NOT NULL,
        UNIQUE (monitor_id, environment)
      );
      -- The sweep's claim of missed runs: only environments that expect a check-in.
      CREATE INDEX monitor_environments_due_idx ON monitors.monitor_environments (next_checkin_latest, id) WHERE next_checkin_latest IS NOT NULL;

      CREATE TABLE monitors.check_ins (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guid uuid NOT NULL,
        monitor_id bigint NOT NULL REFERENCES monitors.monitors(id) ON DELETE CASCADE,
        monitor_environment_id bigint NOT NULL REFERENCES monitors.monitor_environments(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('in_progress', 'ok', 'error', 'missed', 'timeout')),
        duration integer,
        date_created timestamptz NOT NULL,
        date_updated timestamptz NOT NULL,
        expected_time timestamptz,
        timeout_at timestamptz,
        monitor_config jsonb NOT NULL,
        UNIQUE (monitor_id, guid)
      );
      CREATE INDEX check_ins_recent_idx ON monitors.check_ins (monitor_id, date_created DESC, id DESC);
      -- The sweep's claim of timed-out runs: only check-ins still in progress.
      CREATE INDEX check_ins_timeout_idx ON monitors.check_ins (timeout_at, id) WHERE status = 'in_progress';

      -- A run's closing check-in that came before the check-in creating its monitor (SDKs send both
      -- at once): kept briefly, and applied when that check-in arrives.
      CREATE TABLE monitors.unpaired_check_ins (
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        monitor_slug text NOT NULL,
        guid uuid NOT NULL,
        project_id bigint NOT NULL,
        environment text NOT NULL,
        status text NOT NULL CHECK (status IN ('ok', 'error')),
        duration integer,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, monitor_slug, guid)
      );
      CREATE INDEX unpaired_check_ins_age_idx ON monitors.unpaired_check_ins (organization_id, received_at);

      ALTER TABLE issues.issues ADD COLUMN issue_type text NOT NULL DEFAULT 'error';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.issues DROP COLUMN issue_type;
      DROP SCHEMA monitors CASCADE;
    `);
  }
}
