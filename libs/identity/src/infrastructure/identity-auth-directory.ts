import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { ALL_SCOPES, CLOCK, type Clock, expandScopes, intersectScopes, isNumericId } from '@faultline/kernel';
import { AuthDirectory, Database, type OrganizationAccess, type Principal, type SessionPrincipal } from '@faultline/platform';
import { hashToken } from '../domain/api-token';
import { hashSessionCookie } from '../domain/user-session';
import { isMemberRole, type MemberRole, ROLE_SCOPES } from '../domain/roles';
import { AuthCache } from './auth-cache';

interface TokenLookup {
  id: string;
  /** An integration token (a service-app installation's) reaches its organization like an organization token. */
  kind: 'user' | 'organization' | 'integration';
  user_id: string | null;
  organization_id: string | null;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  is_superuser: boolean | null;
  is_active: boolean | null;
}

interface OrganizationLookup {
  id: string;
  slug: string;
  name: string;
  plan: string;
  features: string[];
  date_created: Date;
  require_2fa: boolean;
  role: string | null;
  has_2fa: boolean;
  /** The organization has a single sign-on provider: its members' sessions must have passed it. */
  sso_required: boolean;
}

interface SessionLookup {
  id: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  revoked_at: Date | null;
  is_superuser: boolean;
  is_active: boolean;
  sso_organization_id: string | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** A signed-in user may do in each organization what the member role there allows: every scope, limited by the role. */
const SESSION_SCOPES = expandScopes(ALL_SCOPES);

interface SessionEntry {
  readonly row: SessionLookup;
  readonly session: SessionPrincipal;
}

/** A cached token: its row, and the principal derived from it once, shared by the requests it serves. */
interface TokenEntry {
  readonly row: TokenLookup;
  readonly principal: Principal;
}

/** A cached organization for one token; the access last derived from it is kept with it. */
interface OrganizationEntry {
  readonly row: OrganizationLookup;
  derived?: { readonly principal: Principal; readonly access: OrganizationAccess | null };
}

/**
 * Resolves bearer tokens and organization access for the platform's guard.
 *
 * The Principal and OrganizationAccess objects are immutable and derived from cached rows, so they
 * are derived once per cache entry (and principal) and the same objects answer every request the
 * entry serves: no per-request re-expansion of scopes, and downstream code (the project serialiser)
 * may memoise on their identity. Expiry and deactivation are still checked on every request.
 */
@Injectable()
export class IdentityAuthDirectory extends AuthDirectory {
  constructor(
    private readonly database: Database,
    private readonly cache: AuthCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  async principalForToken(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    const entry = await this.cache.getOrLoad(`token:${hash}`, () => this.loadToken(hash));
    if (!entry) return null;
    const { row } = entry;
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now().getTime()) return null;
    if (row.kind === 'user' && !row.is_active) return null;
    return entry.principal;
  }

  async principalForSession(cookieValue: string): Promise<SessionPrincipal | null> {
    const hash = hashSessionCookie(cookieValue);
    const entry = await this.cache.getOrLoad(`session:${hash}`, () => this.loadSession(hash));
    if (!entry) return null;
    const { row } = entry;
    if (row.revoked_at || row.expires_at.getTime() <= this.clock.now().getTime() || !row.is_active) return null;
    return entry.session;
  }

  async organizationAccess(principal: Principal, idOrSlug: string): Promise<OrganizationAccess | null> {
    const entry = await this.cache.getOrLoad(`org:${principal.tokenId}:${idOrSlug}`, () => this.loadOrganization(principal, idOrSlug));
    if (!entry) return null;
    requirePassedSso(principal, entry.row);
    if (entry.derived?.principal !== principal) entry.derived = { principal, access: deriveAccess(principal, entry.row) };
    return entry.derived.access;
  }

  private async loadToken(hash: string): Promise<TokenEntry | null> {
    const [found] = await this.database.query<TokenLookup>(
      `SELECT t.id, t.kind, t.user_id, t.organization_id, t.scopes, t.expires_at, t.last_used_at, u.is_superuser, u.is_active
       FROM identity.api_tokens t LEFT JOIN identity.users u ON u.id = t.user_id WHERE t.token_hash = $1`,
      [hash],
    );
    if (!found) return null;
    this.touch(found);
    const principal: Principal = {
      kind: found.kind === 'user' ? 'user' : 'organization',
      tokenId: found.id,
      userId: found.user_id ?? undefined,
      organizationId: found.organization_id ?? undefined,
      scopes: expandScopes(found.scopes),
      isSuperuser: found.is_superuser === true,
    };
    return { row: found, principal };
  }

  private async loadSession(hash: string): Promise<SessionEntry | null> {
    const [found] = await this.database.query<SessionLookup>(
      `SELECT s.id, s.user_id, s.csrf_token, s.expires_at, s.revoked_at, u.is_superuser, u.is_active, s.sso_organization_id::text
       FROM identity.user_sessions s JOIN identity.users u ON u.id = s.user_id WHERE s.token_hash = $1`,
      [hash],
    );
    if (!found) return null;
    const principal: Principal = {
      kind: 'user',
      tokenId: `session:${found.id}`,
      sessionId: found.id,
      ...(found.sso_organization_id ? { ssoOrganizationId: found.sso_organization_id } : {}),
      userId: found.user_id,
      scopes: SESSION_SCOPES,
      isSuperuser: found.is_superuser === true,
    };
    return { row: found, session: { principal, csrfToken: found.csrf_token } };
  }

  /** A deactivated member (SCIM `active: false`) is no member: the organization is not theirs to see. */
  private async loadOrganization(principal: Principal, idOrSlug: string): Promise<OrganizationEntry | null> {
    const where = isNumericId(idOrSlug) ? 'o.id = $1::bigint' : 'o.slug = $1';
    const [found] = await this.database.query<OrganizationLookup>(
      `SELECT o.id, o.slug, o.name, o.plan, o.features, o.date_created, o.require_2fa, m.role,
              o.require_2fa AND EXISTS (SELECT 1 FROM identity.authenticators a WHERE a.user_id = $2::bigint AND a.type IN ('totp', 'u2f')) AS has_2fa,
              EXISTS (SELECT 1 FROM identity.auth_providers p WHERE p.organization_id = o.id) AS sso_required
       FROM identity.organizations o
       LEFT JOIN identity.organization_members m ON m.organization_id = o.id AND m.user_id = $2::bigint AND m.is_active
       WHERE ${where}`,
      [idOrSlug, principal.userId ?? null],
    );
    return found ? { row: found } : null;
  }

  /** Records when a token was last used, at most once a minute, off the request's path. */
  private touch(row: TokenLookup): void {
    // eslint-disable-next-line no-restricted-syntax -- last_used_at is written by the database's now(): compared with the same wall clock.
    if (row.last_used_at && Date.now() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.database.execute(`UPDATE identity.api_tokens SET last_used_at = now() WHERE id = $1`, [row.id]).catch(() => undefined);
  }
}

function deriveAccess(principal: Principal, row: OrganizationLookup): OrganizationAccess | null {
  const base = {
    id: row.id,
    slug: row.slug,
    name: row.name,
    plan: row.plan,
    features: row.features,
    dateCreated: row.date_created,
    require2FA: row.require_2fa,
  };
  if (principal.kind === 'organization') {
    return principal.organizationId === row.id ? { ...base, scopes: principal.scopes } : null;
  }
  // An instance administrator reaches every organization with the token's own scopes, whatever
  // role a membership gives it there: an organization (or its SCIM) cannot narrow the operator.
  if (principal.isSuperuser) return { ...base, ...(row.role && isMemberRole(row.role) ? { role: row.role } : {}), scopes: principal.scopes };
  if (row.role && isMemberRole(row.role)) {
    return {
      ...base,
      role: row.role,
      scopes: intersectScopes(principal.scopes, ROLE_SCOPES[row.role as MemberRole]),
      ...(row.require_2fa && !row.has_2fa ? { missingTwoFactor: true } : {}),
    };
  }
  return null;
}

/**
 * Sentry's rule: once an organization has a single sign-on provider, a member's browser session
 * reaches it only when it passed that SSO; otherwise 401 with Sentry's `sso-required` shape, whose
 * loginUrl the web interface follows. Tokens are not sessions and are unaffected (a removed
 * member's token loses the membership, and with it the organization); an instance administrator's
 * session is the operator's recovery path (see docs/scim-and-sso.md).
 */
function requirePassedSso(principal: Principal, row: OrganizationLookup): void {
  if (!principal.sessionId || !row.sso_required || !row.role || principal.isSuperuser || principal.ssoOrganizationId === row.id) return;
  throw new UnauthorizedException({
    detail: { code: 'sso-required', message: 'Must login via SSO', extra: { loginUrl: `/auth/login/${row.slug}/` } },
  });
}
