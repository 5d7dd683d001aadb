import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { AttributeMapping } from '../domain/saml-sign-in';
import type { MemberRole } from '../domain/roles';

export interface LinkedIdentityRow {
  organization_id: string;
  idp_user_id: string;
  date_created: Date;
  slug: string;
  name: string;
  /** null once the organization removed its provider. */
  provider: 'saml2' | 'oidc' | null;
  role: MemberRole | null;
  has_password: boolean;
}

/** An organization's SAML provider as sign-in needs it. */
export interface SamlProviderRow {
  organization_id: string;
  slug: string;
  name: string;
  idp_entity_id: string;
  sso_url: string;
  x509cert: string;
  attribute_mapping: Partial<AttributeMapping>;
  default_role: MemberRole;
}

/** An organization's OpenID Connect provider as sign-in needs it (the client secret included: it authenticates the code exchange). */
export interface OidcProviderRow {
  organization_id: string;
  slug: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  default_role: MemberRole;
}

const OIDC_PROVIDER = `SELECT p.organization_id::text, o.slug, o.name, p.oidc_issuer AS issuer, p.oidc_client_id AS client_id,
       p.oidc_client_secret AS client_secret, p.oidc_scopes AS scopes, p.default_role
       FROM identity.auth_providers p JOIN identity.organizations o ON o.id = p.organization_id`;

/** SQL of single sign-on: RelayStates, assertion ids seen, linked identities, pending links. */
@Injectable()
export class SsoRepository {
  async samlProvider(sql: Sql, organizationSlug: string): Promise<SamlProviderRow | undefined> {
    const [row] = await sql.query<SamlProviderRow>(
      `SELECT p.organization_id::text, o.slug, o.name, p.idp_entity_id, p.sso_url, p.x509cert, p.attribute_mapping, p.default_role
       FROM identity.auth_providers p JOIN identity.organizations o ON o.id = p.organization_id
       WHERE o.slug = $1 AND p.provider = 'saml2'`,
      [organizationSlug],
    );
    return row;
  }

  async oidcProvider(sql: Sql, by: { slug: string } | { organizationId: string }): Promise<OidcProviderRow | undefined> {
    const [row] = await sql.query<OidcProviderRow>(
      `${OIDC_PROVIDER} WHERE ${'slug' in by ? 'o.slug = $1' : 'p.organization_id = $1'} AND p.provider = 'oidc'`,
      ['slug' in by ? by.slug : by.organizationId],
    );
    return row;
  }

  /** Which kind of provider an organization signs in with, for its sign-in page and the account link. */
  async signInProvider(
    sql: Sql,
    organizationSlug: string,
  ): Promise<{ organization_id: string; name: string; provider: 'saml2' | 'oidc'; default_role: MemberRole } | undefined> {
    const [row] = await sql.query<{ organization_id: string; name: string; provider: 'saml2' | 'oidc'; default_role: MemberRole }>(
      `SELECT p.organization_id::text, o.name, p.provider, p.default_role FROM identity.auth_providers p JOIN identity.organizations o ON o.id = p.organization_id
       WHERE o.slug = $1`,
      [organizationSlug],
    );
    return row;
  }

  /** Secrets and assertion ids past their time are of no use: each sign-in sweeps them. */
  async pruneExpired(sql: Sql, now: Date): Promise<void> {
    await sql.execute(
      `WITH r AS (DELETE FROM identity.sso_relay_states WHERE expires_at <= $1), a AS (DELETE FROM identity.sso_assertions WHERE expires_at <= $1)
       DELETE FROM identity.sso_pending_links WHERE expires_at <= $1`,
      [now],
    );
  }

  /** `requestId`: SAML's AuthnRequest id, or the hash of OpenID Connect's nonce. */
  async insertRelayState(
    sql: Sql,
    relay: { hash: string; organizationId: string; requestId: string; expiresAt: Date; protocol?: 'saml2' | 'oidc' },
  ): Promise<void> {
    await sql.execute(`INSERT INTO identity.sso_relay_states (token_hash, organization_id, request_id, expires_at, protocol) VALUES ($1, $2, $3, $4, $5)`, [
      relay.hash,
      relay.organizationId,
      relay.requestId,
      relay.expiresAt,
      relay.protocol ?? 'saml2',
    ]);
  }

  /**
   * Uses up an OpenID Connect state: answers its organization and nonce hash, once, when it is
   * unexpired and was issued for OpenID Connect (a SAML RelayState is spent all the same).
   */
  async consumeOidcState(sql: Sql, hash: string, now: Date): Promise<{ organizationId: string; nonceHash: string } | undefined> {
    const [row] = await sql.query<{ request_id: string; organization_id: string; expires_at: Date; protocol: string }>(
      `DELETE FROM identity.sso_relay_states WHERE token_hash = $1 RETURNING request_id, organization_id::text, expires_at, protocol`,
      [hash],
    );
    return row && row.protocol === 'oidc' && row.expires_at > now ? { organizationId: row.organization_id, nonceHash: row.request_id } : undefined;
  }

  /**
   * Uses up a RelayState: answers the request it started, once, when it is this organization's
   * and unexpired (a RelayState shown to another organization's consumer is spent all the same).
   */
  async consumeRelayState(sql: Sql, hash: string, organizationId: string, now: Date): Promise<string | undefined> {
    const [row] = await sql.query<{ request_id: string; organization_id: string; expires_at: Date; protocol: string }>(
      `DELETE FROM identity.sso_relay_states WHERE token_hash = $1 RETURNING request_id, organization_id::text, expires_at, protocol`,
      [hash],
    );
    return row && row.protocol === 'saml2' && row.organization_id === organizationId && row.expires_at > now ? row.request_id : undefined;
  }

  /** false when this assertion was accepted before. */
  async rememberAssertion(sql: Sql, organizationId: string, assertionId: string, until: Date): Promise<boolean> {
    const rows = await sql.query(
      `INSERT INTO identity.sso_assertions (organization_id, assertion_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING assertion_id`,
      [organizationId, assertionId.slice(0, 256), until],
    );
    return rows.length > 0;
  }

  async linkedUser(sql: Sql, organizationId: string, idpUserId: string): Promise<string | undefined> {
    const [row] = await sql.query<{ user_id: string }>(`SELECT user_id::text FROM identity.sso_identities WHERE organization_id = $1 AND idp_user_id = $2`, [
      organizationId,
      idpUserId,
    ]);
    return row?.user_id;
  }

  /** The member the identity provider provisioned (SCIM) as this user: by its external id, else by e-mail. */
  async provisionedMember(sql: Sql, organizationId: string, idpUserId: string, email: string): Promise<string | undefined> {
    const [row] = await sql.query<{ user_id: string }>(
      `SELECT m.user_id::text FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id
       WHERE m.organization_id = $1 AND m.idp_provisioned AND (m.external_id = $2 OR lower(u.email) = lower($3))
       ORDER BY (m.external_id = $2) DESC NULLS LAST LIMIT 1`,
      [organizationId, idpUserId, email],
    );
    return row?.user_id;
  }

  async userByEmail(sql: Sql, email: string): Promise<string | undefined> {
    const [row] = await sql.query<{ id: string }>(`SELECT id::text FROM identity.users WHERE lower(email) = lower($1)`, [email]);
    return row?.id;
  }

  async link(sql: Sql, organizationId: string, idpUserId: string, userId: string): Promise<void> {
    await sql.execute(
      `INSERT INTO identity.sso_identities (organization_id, idp_user_id, user_id) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET idp_user_id = EXCLUDED.idp_user_id`,
      [organizationId, idpUserId, userId],
    );
  }

  /** The user's links to organizations' identity providers, with what decides whether one may be unlinked. */
  async identitiesOf(sql: Sql, userId: string): Promise<LinkedIdentityRow[]> {
    return sql.query<LinkedIdentityRow>(
      `SELECT i.organization_id::text, i.idp_user_id, i.date_created, o.slug, o.name, p.provider, m.role, u.password_hash IS NOT NULL AS has_password
       FROM identity.sso_identities i
       JOIN identity.organizations o ON o.id = i.organization_id
       JOIN identity.users u ON u.id = i.user_id
       LEFT JOIN identity.auth_providers p ON p.organization_id = i.organization_id
       LEFT JOIN identity.organization_members m ON m.organization_id = i.organization_id AND m.user_id = i.user_id AND m.is_active
       WHERE i.user_id = $1 ORDER BY o.name, o.id LIMIT 100`,
      [userId],
    );
  }

  async unlink(sql: Sql, organizationId: string, userId: string): Promise<boolean> {
    const rows = await sql.query(`DELETE FROM identity.sso_identities WHERE organization_id = $1 AND user_id = $2 RETURNING user_id`, [organizationId, userId]);
    return rows.length > 0;
  }

  /** A user without a password: it signs in through its organization's identity provider. */
  async createUser(sql: Sql, email: string, name: string, organizationId: string): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO identity.users (email, name, provisioned_by_organization_id) VALUES ($1, $2, $3) RETURNING id::text`,
      [email, name, organizationId],
    );
    return row.id;
  }

  /** The user's membership: its id and whether it is active; undefined when it is no member. */
  async member(sql: Sql, organizationId: string, userId: string): Promise<{ id: string; is_active: boolean } | undefined> {
    const [row] = await sql.query<{ id: string; is_active: boolean }>(
      `SELECT id::text, is_active FROM identity.organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return row;
  }

  async insertPendingLink(sql: Sql, link: { hash: string; organizationId: string; idpUserId: string; userId: string; expiresAt: Date }): Promise<void> {
    await sql.execute(`INSERT INTO identity.sso_pending_links (token_hash, organization_id, idp_user_id, user_id, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      link.hash,
      link.organizationId,
      link.idpUserId,
      link.userId,
      link.expiresAt,
    ]);
  }

  async findPendingLink(
    sql: Sql,
    hash: string,
    now: Date,
    options: { consume?: boolean } = {},
  ): Promise<{ organization_id: string; slug: string; idp_user_id: string; user_id: string; email: string } | undefined> {
    const [row] = await sql.query<{ organization_id: string; slug: string; idp_user_id: string; user_id: string; email: string }>(
      options.consume
        ? `WITH l AS (DELETE FROM identity.sso_pending_links WHERE token_hash = $1 AND expires_at > $2 RETURNING *)
           SELECT l.organization_id::text, o.slug, l.idp_user_id, l.user_id::text, u.email FROM l
           JOIN identity.organizations o ON o.id = l.organization_id JOIN identity.users u ON u.id = l.user_id`
        : `SELECT l.organization_id::text, o.slug, l.idp_user_id, l.user_id::text, u.email FROM identity.sso_pending_links l
           JOIN identity.organizations o ON o.id = l.organization_id JOIN identity.users u ON u.id = l.user_id
           WHERE l.token_hash = $1 AND l.expires_at > $2`,
      [hash, now],
    );
    return row;
  }
}
