import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each context's objects move into the PostgreSQL schema of the context that writes them, so a
 * name in SQL says whose data it is; `public` keeps only the migrations table. `SET SCHEMA` keeps
 * rows, indexes, identity sequences, triggers and constraints (foreign keys bind by OID, so they
 * now cross schemas), and view definitions bind by OID too. Trigger functions whose bodies are SQL
 * text are recreated with qualified names, as their unqualified names would no longer resolve.
 * The ticket tracker module moves its own tables in its own migration.
 */
const OWNERS: ReadonlyArray<{ schema: string; tables: string[]; views?: string[]; sequences?: string[]; functions?: string[] }> = [
  { schema: 'event_store', tables: ['events', 'event_checkpoints'], functions: ['events_reject_change'] },
  {
    schema: 'identity',
    tables: [
      'users',
      'organizations',
      'organization_members',
      'organization_member_counts',
      'teams',
      'team_members',
      'api_tokens',
      'user_sessions',
      'organization_invites',
    ],
    views: ['scim_users', 'scim_groups', 'scim_group_members'],
    functions: ['count_organization_members', 'organization_member_user_name'],
  },
  { schema: 'projects', tables: ['projects', 'project_teams', 'project_bookmarks', 'project_keys'] },
  {
    schema: 'ingest',
    tables: [
      'ingest_queue',
      'ingest_outcomes',
      'ingest_rate_windows',
      'ingest_dead_letters',
      'project_inbound_filters',
      'project_stats',
      'tag_values',
      'event_users',
    ],
  },
  { schema: 'issues', tables: ['issues', 'issue_counters', 'issue_users', 'issue_stats', 'issue_tag_values', 'error_events'] },
  {
    schema: 'webhooks',
    tables: ['service_hooks', 'webhook_deliveries', 'webhook_attempts', 'webhook_delivery_queue', 'webhook_app_targets'],
    views: ['webhook_targets'],
  },
  { schema: 'integrations', tables: ['sentry_apps', 'sentry_app_installations', 'external_issues'] },
  { schema: 'scim', tables: ['auth_providers'] },
  {
    schema: 'alerts',
    tables: [
      'issue_alert_rules',
      'issue_alert_rule_issues',
      'issue_alert_fires',
      'alert_issue_minutes',
      'alert_issue_minute_users',
      'metric_alert_rules',
      'metric_alert_incidents',
      'metric_alert_incident_activity',
      'metric_alert_incident_counters',
    ],
    sequences: ['metric_alert_trigger_ids'],
  },
];

/**
 * The trigger functions whose bodies name tables, and the column default that names a sequence's
 * table as text (invites take their ids from the members' sequence), as written for the schema they live in.
 */
function memberTriggerFunctions(schema: string): string {
  const at = schema === 'public' ? '' : `${schema}.`;
  return `
    ALTER TABLE ${schema}.organization_invites ALTER COLUMN id SET DEFAULT nextval(pg_get_serial_sequence('${at}organization_members', 'id'));
    CREATE OR REPLACE FUNCTION ${at}count_organization_members() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO ${at}organization_member_counts (organization_id, members)
          SELECT organization_id, count(*) FROM added_members GROUP BY organization_id ORDER BY organization_id
          ON CONFLICT (organization_id) DO UPDATE SET members = organization_member_counts.members + EXCLUDED.members;
      ELSE
        UPDATE ${at}organization_member_counts c SET members = c.members - d.n, removals = c.removals + d.n
          FROM (SELECT organization_id, count(*) AS n FROM removed_members GROUP BY organization_id) d
          WHERE c.organization_id = d.organization_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION ${at}organization_member_user_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.user_name := (SELECT email FROM ${at}users WHERE id = NEW.user_id);
      RETURN NEW;
    END $$;`;
}

/**
 * What each owner publishes for other contexts to read in SQL (listed in its
 * `contracts/published-views.ts`): narrow read-only projections, inlined by the planner, so a
 * consumer's join costs what the join on the table did.
 */
const PUBLISHED_VIEWS = `
  CREATE VIEW event_store.stream_events AS
    SELECT global_position, stream_id, stream_type, version, event_id, event_type, schema_version, data, metadata, recorded_at
    FROM event_store.events;
  CREATE VIEW identity.organization_directory AS
    SELECT id, slug, name, plan, features, date_created FROM identity.organizations;
  CREATE VIEW identity.member_directory AS
    SELECT m.id, m.organization_id, m.user_id, m.role, m.is_active, u.email, u.name
    FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id;
  CREATE VIEW identity.team_directory AS
    SELECT id, organization_id, slug, name FROM identity.teams;
  CREATE VIEW identity.team_memberships AS
    SELECT team_id, member_id FROM identity.team_members;
  CREATE VIEW identity.scim_member_counts AS
    SELECT organization_id, members, removals FROM identity.organization_member_counts;
  CREATE VIEW projects.project_directory AS
    SELECT id, organization_id, slug, name, platform, status, features, first_event, date_created FROM projects.projects;
  CREATE VIEW ingest.project_tag_values AS
    SELECT project_id, key, value, times_seen, first_seen, last_seen FROM ingest.tag_values;
  CREATE VIEW ingest.project_event_users AS
    SELECT project_id, hash, user_ident, email, username, ip_address, name, date_created FROM ingest.event_users;
  CREATE VIEW issues.issue_directory AS
    SELECT id, project_id, short_id, title, culprit, level, platform, status, substatus, assignee,
           first_seen, last_seen, times_seen, user_count
    FROM issues.issues;
  CREATE VIEW webhooks.delivery_log AS
    SELECT id, guid, target_kind, target_id, cause, event_type, status, attempts, last_status_code, created_at, finished_at
    FROM webhooks.webhook_deliveries;`;

const DROP_PUBLISHED_VIEWS = `
  DROP VIEW event_store.stream_events, identity.organization_directory, identity.member_directory, identity.team_directory,
    identity.team_memberships, identity.scim_member_counts, projects.project_directory, ingest.project_tag_values,
    ingest.project_event_users, issues.issue_directory, webhooks.delivery_log;`;

export class ContextSchemas1763800003000 implements MigrationInterface {
  name = 'ContextSchemas1763800003000';

  async up(db: QueryRunner): Promise<void> {
    for (const { schema, tables, views = [], sequences = [], functions = [] } of OWNERS) {
      await db.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      for (const table of tables) await db.query(`ALTER TABLE public.${table} SET SCHEMA ${schema}`);
      for (const view of views) await db.query(`ALTER VIEW public.${view} SET SCHEMA ${schema}`);
      for (const sequence of sequences) await db.query(`ALTER SEQUENCE public.${sequence} SET SCHEMA ${schema}`);
      for (const fn of functions) await db.query(`ALTER FUNCTION public.${fn}() SET SCHEMA ${schema}`);
    }
    await db.query(memberTriggerFunctions('identity'));
    await db.query(PUBLISHED_VIEWS);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(DROP_PUBLISHED_VIEWS);
    for (const { schema, tables, views = [], sequences = [], functions = [] } of [...OWNERS].reverse()) {
      for (const fn of functions) await db.query(`ALTER FUNCTION ${schema}.${fn}() SET SCHEMA public`);
      for (const sequence of sequences) await db.query(`ALTER SEQUENCE ${schema}.${sequence} SET SCHEMA public`);
      for (const view of views) await db.query(`ALTER VIEW ${schema}.${view} SET SCHEMA public`);
      for (const table of tables) await db.query(`ALTER TABLE ${schema}.${table} SET SCHEMA public`);
    }
    await db.query(memberTriggerFunctions('public'));
    // A schema that later migrations also create into (issues.user_reports) stays for them to drop.
    for (const { schema } of OWNERS) {
      const [{ empty }] = await db.query(
        `SELECT NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = $1::regnamespace)
            AND NOT EXISTS (SELECT 1 FROM pg_proc WHERE pronamespace = $1::regnamespace) AS empty`,
        [schema],
      );
      if (empty) await db.query(`DROP SCHEMA ${schema}`);
    }
  }
}
