import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { AttributeMapping } from '../domain/saml-sign-in';
import { ScimProviders, type ScimTokenOwner } from '../contracts/scim-providers';

export interface AuthProviderRow {
  id: string;
  organization_id: string;
  provider: 'saml2' | 'oidc';
  idp_entity_id: string | null;
  sso_url: string | null;
  x509cert: string | null;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** Whether a client secret is stored; the secret itself is never read back out. */
  oidc_client_secret_set: boolean;
  oidc_scopes: string | null;
  scim_enabled: boolean;
  scim_token_last_characters: string | null;
  attribute_mapping: Partial<AttributeMapping>;
  default_role: string;
  date_created: Date;
  date_updated: Date;
}

export type AuthProviderWrite = {
  scimEnabled: boolean;
  scimToken?: { hash: string; lastCharacters: string } | null;
  attributeMapping: Partial<AttributeMapping>;
  defaultRole: string;
} & (
  | { provider: 'saml2'; idpEntityId: string; ssoUrl: string; x509cert: string }
  /** `clientSecret` undefined keeps the stored one. */
  | { provider: 'oidc'; issuer: string; clientId: string; clientSecret?: string; scopes: string }
);

/** provider, idp_entity_id, sso_url, x509cert, then oidc_issuer, oidc_client_id, oidc_client_secret, oidc_scopes: one protocol's columns are empty. */
function protocolColumns(write: AuthProviderWrite): (string | null)[] {
  return write.provider === 'saml2'
    ? [write.provider, write.idpEntityId, write.ssoUrl, write.x509cert, null, null, null, null]
    : [write.provider, null, null, null, write.issuer, write.clientId, write.clientSecret ?? null, write.scopes];
}

const COLUMNS = `id, organization_id, provider, idp_entity_id, sso_url, x509cert, oidc_issuer, oidc_client_id,
  oidc_client_secret IS NOT NULL AS oidc_client_secret_set, oidc_scopes, scim_enabled, scim_token_last_characters, attribute_mapping, default_role, date_created, date_updated`;

@Injectable()
export class AuthProviderRepository extends ScimProviders {
  async find(sql: Sql, organizationId: string, options: { lock?: boolean } = {}): Promise<AuthProviderRow | undefined> {
    const [row] = await sql.query<AuthProviderRow>(
      `SELECT ${COLUMNS} FROM identity.auth_providers WHERE organization_id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [organizationId],
    );
    return row;
  }

  async insert(sql: Sql, organizationId: string, write: AuthProviderWrite): Promise<AuthProviderRow> {
    const [row] = await sql.query<AuthProviderRow>(
      `INSERT INTO identity.auth_providers (organization_id, provider, idp_entity_id, sso_url, x509cert, scim_enabled, scim_token_hash, scim_token_last_characters,
         attribute_mapping, default_role, oidc_issuer, oidc_client_id, oidc_client_secret, oidc_scopes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14) ON CONFLICT (organization_id) DO NOTHING RETURNING ${COLUMNS}`,
      [
        organizationId,
        ...protocolColumns(write).slice(0, 4),
        write.scimEnabled,
        write.scimToken?.hash ?? null,
        write.scimToken?.lastCharacters ?? null,
        JSON.stringify(write.attributeMapping),
        write.defaultRole,
        ...protocolColumns(write).slice(4),
      ],
    );
    return row;
  }

  /** `scimToken` undefined keeps the token; null removes it; a value replaces it. */
  async update(sql: Sql, organizationId: string, write: AuthProviderWrite): Promise<AuthProviderRow> {
    const keep = write.scimToken === undefined;
    const [row] = await sql.query<AuthProviderRow>(
      `UPDATE identity.auth_providers SET provider = $2, idp_entity_id = $3, sso_url = $4, x509cert = $5, scim_enabled = $6,
              oidc_issuer = $12, oidc_client_id = $13, oidc_scopes = $15,
              oidc_client_secret = CASE WHEN $2 = 'oidc' THEN coalesce($14::text, oidc_client_secret) END,
              scim_token_hash = CASE WHEN $7::boolean THEN scim_token_hash ELSE $8 END,
              scim_token_last_characters = CASE WHEN $7::boolean THEN scim_token_last_characters ELSE $9 END,
              attribute_mapping = $10::jsonb, default_role = $11, date_updated = now()
       WHERE organization_id = $1 RETURNING ${COLUMNS}`,
      [
        organizationId,
        ...protocolColumns(write).slice(0, 4),
        write.scimEnabled,
        keep,
        write.scimToken?.hash ?? null,
        write.scimToken?.lastCharacters ?? null,
        JSON.stringify(write.attributeMapping),
        write.defaultRole,
        ...protocolColumns(write).slice(4),
      ],
    );
    return row;
  }

  async delete(sql: Sql, organizationId: string): Promise<boolean> {
    return (await sql.execute(`DELETE FROM identity.auth_providers WHERE organization_id = $1`, [organizationId])) > 0;
  }

  async tokenOwner(sql: Sql, tokenHash: string): Promise<ScimTokenOwner | undefined> {
    const [row] = await sql.query<ScimTokenOwner>(
      `SELECT p.organization_id, o.slug, o.plan, p.scim_enabled FROM identity.auth_providers p JOIN identity.organizations o ON o.id = p.organization_id
       WHERE p.scim_token_hash = $1`,
      [tokenHash],
    );
    return row;
  }

  async scimEnabled(sql: Sql, organizationId: string): Promise<boolean | undefined> {
    return (await this.find(sql, organizationId))?.scim_enabled;
  }
}
