import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on belongs to identity: the organization's provider moves there from scim, with what
 * SAML sign-in keeps: its attribute mapping and default role; RelayStates (single-use, hashed,
 * expiring), assertion ids seen (each accepted once, kept until the assertion expires), the
 * identity provider's users linked to accounts, links waiting for the account's password, and on
 * each session the organization whose SSO it passed.
 */
export class SingleSignOn1764700000000 implements MigrationInterface {
  name = 'SingleSignOn1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE scim.auth_providers SET SCHEMA identity;
      ALTER TABLE identity.auth_providers
        ADD COLUMN attribute_mapping jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN default_role text NOT NULL DEFAULT 'member' CHECK (default_role IN ('member', 'admin', 'manager', 'owner')),
        ADD COLUMN metadata_url text;

      CREATE TABLE identity.sso_relay_states (
        token_hash text PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        request_id text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sso_relay_states_expires_at ON identity.sso_relay_states (expires_at);

      CREATE TABLE identity.sso_assertions (
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        assertion_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, assertion_id)
      );
      CREATE INDEX sso_assertions_expires_at ON identity.sso_assertions (expires_at);

      CREATE TABLE identity.sso_identities (
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        idp_user_id text NOT NULL,
        user_id bigint NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        date_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, idp_user_id),
        UNIQUE (organization_id, user_id)
      );

      CREATE TABLE identity.sso_pending_links (
        token_hash text PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        idp_user_id text NOT NULL,
        user_id bigint NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sso_pending_links_expires_at ON identity.sso_pending_links (expires_at);

      ALTER TABLE identity.user_sessions ADD COLUMN sso_organization_id bigint REFERENCES identity.organizations(id) ON DELETE SET NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.user_sessions DROP COLUMN sso_organization_id;
      DROP TABLE identity.sso_pending_links, identity.sso_identities, identity.sso_assertions, identity.sso_relay_states;
      ALTER TABLE identity.auth_providers DROP COLUMN attribute_mapping, DROP COLUMN default_role, DROP COLUMN metadata_url;
      ALTER TABLE identity.auth_providers SET SCHEMA scim;
    `);
  }
}
