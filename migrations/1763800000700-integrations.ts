import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The integration platform: service apps, installations (event-sourced; this table is their read
 * model, kept in the recording transaction), external issue links; identity's tokens gain the
 * `integration` kind (installation tokens, bound to one organization); and the delivery engine's
 * targets become one view over every kind of webhook receiver, so a claim needs one join whatever
 * sent the delivery.
 */
export class Integrations1763800000700 implements MigrationInterface {
  name = 'Integrations1763800000700';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_kind_check;
      ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check CHECK (kind IN ('user', 'organization', 'integration'));
      ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_check;
      ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_check
        CHECK ((kind = 'user' AND user_id IS NOT NULL) OR (kind IN ('organization', 'integration') AND organization_id IS NOT NULL));

      -- Receivers other contexts register with the delivery engine (service apps), by kind and id.
      CREATE TABLE webhook_app_targets (
        target_kind text NOT NULL,
        target_id text NOT NULL,
        url text NOT NULL,
        secret text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        -- Extra request headers the receiver asked for ("Name: value"), sent with every request.
        headers text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (target_kind, target_id)
      );
      -- A receiver's request log, newest first per event type.
      CREATE INDEX webhook_deliveries_target_event_idx ON webhook_deliveries (target_kind, target_id, event_type, id DESC);
      CREATE VIEW webhook_targets AS
        SELECT 'service_hook'::text AS target_kind, id AS target_id, url, secret, status, '{}'::text[] AS headers FROM service_hooks
        UNION ALL
        SELECT target_kind, target_id, url, secret, status, headers FROM webhook_app_targets;

      CREATE TABLE sentry_apps (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        uuid uuid NOT NULL UNIQUE,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        owner_organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        is_internal boolean NOT NULL,
        status text NOT NULL CHECK (status IN ('unpublished', 'publish_request_inprogress', 'published', 'internal')),
        webhook_url text,
        redirect_url text,
        verify_install boolean NOT NULL DEFAULT true,
        scopes text[] NOT NULL DEFAULT '{}',
        events text[] NOT NULL DEFAULT '{}',
        is_alertable boolean NOT NULL DEFAULT false,
        schema jsonb NOT NULL DEFAULT '{}',
        allowed_origins text[] NOT NULL DEFAULT '{}',
        webhook_headers text[] NOT NULL DEFAULT '{}',
        overview text,
        author text,
        client_id text NOT NULL UNIQUE,
        client_secret text NOT NULL,
        created_by bigint,
        date_created timestamptz NOT NULL DEFAULT now(),
        date_updated timestamptz NOT NULL DEFAULT now(),
        date_published timestamptz
      );
      CREATE INDEX sentry_apps_owner_idx ON sentry_apps (owner_organization_id, date_created DESC);

      -- The Installation aggregate's state; deleted installations stay (status 'deleted') for the log.
      CREATE TABLE sentry_app_installations (
        uuid uuid PRIMARY KEY,
        app_id bigint NOT NULL REFERENCES sentry_apps(id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('pending', 'installed', 'deleted')),
        grant_code_hash text,
        grant_expires_at timestamptz,
        token_ids text[] NOT NULL DEFAULT '{}',
        refresh_token_hash text,
        current_token_id text,
        version integer NOT NULL,
        date_created timestamptz NOT NULL,
        date_updated timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX sentry_app_installations_live_idx ON sentry_app_installations (app_id, organization_id) WHERE status <> 'deleted';
      CREATE INDEX sentry_app_installations_organization_idx ON sentry_app_installations (organization_id, date_created DESC);

      CREATE TABLE external_issues (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        app_id bigint NOT NULL REFERENCES sentry_apps(id) ON DELETE CASCADE,
        installation_uuid uuid NOT NULL REFERENCES sentry_app_installations(uuid) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        web_url text NOT NULL,
        project text NOT NULL,
        identifier text NOT NULL,
        date_created timestamptz NOT NULL DEFAULT now(),
        UNIQUE (issue_id, app_id)
      );
      CREATE INDEX external_issues_installation_idx ON external_issues (installation_uuid, id DESC);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE external_issues, sentry_app_installations, sentry_apps;
      DROP VIEW webhook_targets;
      DROP TABLE webhook_app_targets;
      DROP INDEX webhook_deliveries_target_event_idx;
      DELETE FROM api_tokens WHERE kind = 'integration';
      ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_check;
      ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_check
        CHECK ((kind = 'user' AND user_id IS NOT NULL) OR (kind = 'organization' AND organization_id IS NOT NULL));
      ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_kind_check;
      ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check CHECK (kind IN ('user', 'organization'));
    `);
  }
}
