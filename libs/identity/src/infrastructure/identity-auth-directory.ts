import { Injectable } from '@nestjs/common';
import { expandScopes, intersectScopes } from '@faultline/kernel';
import { AuthDirectory, Database, type OrganizationAccess, type Principal } from '@faultline/platform';
import { hashToken } from '../domain/api-token';
import { isMemberRole, type MemberRole, ROLE_SCOPES } from '../domain/roles';
import { AuthCache } from './auth-cache';

interface TokenLookup {
  id: string;
  kind: 'user' | 'organization';
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
  role: string | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves bearer tokens and organization access for the platform's guard. */
@Injectable()
export class IdentityAuthDirectory extends AuthDirectory {
  constructor(
    private readonly database: Database,
    private readonly cache: AuthCache,
  ) {
    super();
  }

  async principalForToken(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    const row = await this.cache.getOrLoad(`token:${hash}`, async () => {
      const [found] = await this.database.query<TokenLookup>(
        `SELECT t.id, t.kind, t.user_id, t.organization_id, t.scopes, t.expires_at, t.last_used_at, u.is_superuser, u.is_active
         FROM api_tokens t LEFT JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
        [hash],
      );
      if (found) this.touch(found);
      return found ?? null;
    });
    if (!row) return null;
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) return null;
    if (row.kind === 'user' && !row.is_active) return null;
    return {
      kind: row.kind,
      tokenId: row.id,
      userId: row.user_id ?? undefined,
      organizationId: row.organization_id ?? undefined,
      scopes: expandScopes(row.scopes),
      isSuperuser: row.is_superuser === true,
    };
  }

  async organizationAccess(principal: Principal, idOrSlug: string): Promise<OrganizationAccess | null> {
    const row = await this.cache.getOrLoad(`org:${principal.tokenId}:${idOrSlug}`, async () => {
      const where = /^\d+$/.test(idOrSlug) ? 'o.id = $1::bigint' : 'o.slug = $1';
      const [found] = await this.database.query<OrganizationLookup>(
        `SELECT o.id, o.slug, o.name, o.plan, o.features, o.date_created, m.role
         FROM organizations o LEFT JOIN organization_members m ON m.organization_id = o.id AND m.user_id = $2::bigint
         WHERE ${where}`,
        [idOrSlug, principal.userId ?? null],
      );
      return found ?? null;
    });
    if (!row) return null;
    const base = { id: row.id, slug: row.slug, name: row.name, plan: row.plan, features: row.features, dateCreated: row.date_created };
    if (principal.kind === 'organization') {
      return principal.organizationId === row.id ? { ...base, scopes: principal.scopes } : null;
    }
    if (row.role && isMemberRole(row.role)) {
      return { ...base, role: row.role, scopes: intersectScopes(principal.scopes, ROLE_SCOPES[row.role as MemberRole]) };
    }
    // An instance administrator reaches every organization with the token's own scopes.
    return principal.isSuperuser ? { ...base, scopes: principal.scopes } : null;
  }

  /** Records when a token was last used, at most once a minute, off the request's path. */
  private touch(row: TokenLookup): void {
    if (row.last_used_at && Date.now() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.database.execute(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [row.id]).catch(() => undefined);
  }
}
