import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID Connect as a second kind of organization identity provider: its issuer (discovered),
 * client id, client secret and scopes; SAML's columns are then empty. A sign-in's state is kept as
 * SAML's RelayState is (single-use, hashed, expiring), marked with the protocol it belongs to so
 * that one protocol's callback cannot spend the other's.
 */
export class OpenIdConnect1764900000000 implements MigrationInterface {
  name = 'OpenIdConnect1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.auth_providers DROP CONSTRAINT auth_providers_provider_check;
      ALTER TABLE identity.auth_providers
        ALTER COLUMN idp_entity_id DROP NOT NULL,
        ALTER COLUMN sso_url DROP NOT NULL,
        ALTER COLUMN x509cert DROP NOT NULL,
        ADD COLUMN oidc_issuer text,
        ADD COLUMN oidc_client_id text,
        ADD COLUMN oidc_client_secret text,
        ADD COLUMN oidc_scopes text,
        ADD CONSTRAINT auth_providers_provider_check CHECK (
          (provider = 'saml2' AND idp_entity_id IS NOT NULL AND sso_url IS NOT NULL AND x509cert IS NOT NULL)
          OR (provider = 'oidc' AND oidc_issuer IS NOT NULL AND oidc_client_id IS NOT NULL AND oidc_client_secret IS NOT NULL AND oidc_scopes IS NOT NULL));
      ALTER TABLE identity.sso_relay_states ADD COLUMN protocol text NOT NULL DEFAULT 'saml2' CHECK (protocol IN ('saml2', 'oidc'));
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DELETE FROM identity.auth_providers WHERE provider = 'oidc';
      ALTER TABLE identity.sso_relay_states DROP COLUMN protocol;
      ALTER TABLE identity.auth_providers DROP CONSTRAINT auth_providers_provider_check,
        DROP COLUMN oidc_issuer, DROP COLUMN oidc_client_id, DROP COLUMN oidc_client_secret, DROP COLUMN oidc_scopes,
        ALTER COLUMN idp_entity_id SET NOT NULL, ALTER COLUMN sso_url SET NOT NULL, ALTER COLUMN x509cert SET NOT NULL,
        ADD CONSTRAINT auth_providers_provider_check CHECK (provider IN ('saml2'));
    `);
  }
}
