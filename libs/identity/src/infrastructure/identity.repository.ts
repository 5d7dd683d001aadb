import type { DataPrivacySettings } from '@faultline/kernel';
import { isNumericId } from '@faultline/kernel';
import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { MemberRole, Plan } from '../domain/roles';
import type { TokenKind } from '../domain/api-token';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  is_superuser: boolean;
  is_active: boolean;
  date_joined: Date;
}

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  features: string[];
  date_created: Date;
  require_2fa: boolean;
  /** Sentry's `attachmentsRole`: the lowest member role that may download event attachments. */
  attachments_role: MemberRole;
  data_scrubber: boolean;
  data_scrubber_defaults: boolean;
  sensitive_fields: string[];
  safe_fields: string[];
  scrub_ip_addresses: boolean;
  store_crash_reports: number;
}

/** An organization's data privacy requirements, as the API names them. */
export interface OrganizationDataPrivacy extends DataPrivacySettings {
  readonly storeCrashReports: number;
}

export const dataPrivacyOf = (row: OrganizationRow): OrganizationDataPrivacy => ({
  dataScrubber: row.data_scrubber,
  dataScrubberDefaults: row.data_scrubber_defaults,
  sensitiveFields: row.sensitive_fields,
  safeFields: row.safe_fields,
  scrubIPAddresses: row.scrub_ip_addresses,
  storeCrashReports: row.store_crash_reports,
});

export interface MemberRow extends UserRow {
  member_id: string;
  organization_id: string;
  user_id: string;
  role: MemberRole;
  member_date_created: Date;
  team_slugs: string[];
  idp_provisioned: boolean;
}

export interface TeamRow {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  date_created: Date;
  member_count: number;
  is_member: boolean;
}

export interface TokenRow {
  id: string;
  kind: TokenKind;
  user_id: string | null;
  organization_id: string | null;
  name: string;
  token_last_characters: string;
  scopes: string[];
  date_created: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const byIdOrSlug = (column: string, param: string, value: string) => (isNumericId(value) ? `${column}.id = ${param}::bigint` : `${column}.slug = ${param}`);

const MEMBER_COLUMNS = `
  m.id AS member_id, m.organization_id, m.user_id, m.role, m.date_created AS member_date_created, m.idp_provisioned,
  u.id, u.email, u.name, u.is_superuser, u.is_active, u.date_joined,
  COALESCE((SELECT array_agg(t.slug ORDER BY t.slug) FROM identity.team_members tm JOIN identity.teams t ON t.id = tm.team_id
            WHERE tm.member_id = m.id), '{}') AS team_slugs`;

const TEAM_COLUMNS = (userParam: string) => `
  t.id, t.organization_id, t.slug, t.name, t.date_created,
  (SELECT count(*)::int FROM identity.team_members tm WHERE tm.team_id = t.id) AS member_count,
  EXISTS (SELECT 1 FROM identity.team_members tm JOIN identity.organization_members m ON m.id = tm.member_id
          WHERE tm.team_id = t.id AND m.user_id = ${userParam}) AS is_member`;

/** SQL for users, organizations, members, teams and tokens. */
@Injectable()
export class IdentityRepository {
  async insertUser(sql: Sql, user: { email: string; name: string; isSuperuser: boolean }): Promise<UserRow> {
    const [row] = await sql.query<UserRow>(`INSERT INTO identity.users (email, name, is_superuser) VALUES ($1, $2, $3) RETURNING *`, [
      user.email,
      user.name,
      user.isSuperuser,
    ]);
    return row;
  }

  async findUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
    const [row] = await sql.query<UserRow>(`SELECT * FROM identity.users WHERE lower(email) = lower($1)`, [email]);
    return row;
  }

  async insertOrganization(sql: Sql, org: { slug: string; name: string; plan: Plan; features: string[] }): Promise<OrganizationRow> {
    const [row] = await sql.query<OrganizationRow>(
      `INSERT INTO identity.organizations (slug, name, plan, features) VALUES ($1, $2, $3, $4::text[]) RETURNING *`,
      [org.slug, org.name, org.plan, org.features],
    );
    return row;
  }

  async slugTaken(sql: Sql, table: 'organizations' | 'teams', slug: string, organizationId?: string): Promise<boolean> {
    const rows =
      table === 'organizations'
        ? await sql.query(`SELECT 1 FROM identity.organizations WHERE slug = $1`, [slug])
        : await sql.query(`SELECT 1 FROM identity.teams WHERE slug = $1 AND organization_id = $2`, [slug, organizationId]);
    return rows.length > 0;
  }

  async findUserSummary(sql: Sql, by: { email: string } | { id: string }): Promise<{ id: string; email: string; has_password: boolean } | undefined> {
    const [row] = await sql.query<{ id: string; email: string; has_password: boolean }>(
      `SELECT id, email, password_hash IS NOT NULL AS has_password FROM identity.users
       WHERE ${'email' in by ? 'lower(email) = lower($1)' : 'id = $1::bigint'}`,
      ['email' in by ? by.email : by.id],
    );
    return row;
  }

  async countUsers(sql: Sql): Promise<number> {
    const [{ users }] = await sql.query<{ users: number }>(`SELECT count(*)::int AS users FROM identity.users`);
    return users;
  }

  async tokenHashExists(sql: Sql, hash: string): Promise<boolean> {
    return (await sql.query(`SELECT 1 FROM identity.api_tokens WHERE token_hash = $1`, [hash])).length > 0;
  }

  async findUser(sql: Sql, id: string): Promise<UserRow | undefined> {
    const [row] = await sql.query<UserRow>(`SELECT * FROM identity.users WHERE id = $1`, [id]);
    return row;
  }

  async userTeams(sql: Sql, organizationId: string, userId: string): Promise<Array<{ id: string; slug: string; name: string }>> {
    return sql.query(
      `SELECT t.id, t.slug, t.name FROM identity.teams t
       JOIN identity.team_members tm ON tm.team_id = t.id JOIN identity.organization_members m ON m.id = tm.member_id
       WHERE t.organization_id = $1 AND m.user_id = $2 ORDER BY t.slug`,
      [organizationId, userId],
    );
  }

  async findOrganization(sql: Sql, idOrSlug: string): Promise<OrganizationRow | undefined> {
    const [row] = await sql.query<OrganizationRow>(`SELECT o.* FROM identity.organizations o WHERE ${byIdOrSlug('o', '$1', idOrSlug)}`, [idOrSlug]);
    return row;
  }

  async lockOrganization(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
    const [row] = await sql.query<OrganizationRow>(`SELECT * FROM identity.organizations WHERE id = $1 FOR UPDATE`, [id]);
    return row;
  }

  async updateOrganization(
    sql: Sql,
    id: string,
    changes: {
      slug?: string;
      name?: string;
      plan?: Plan;
      features?: string[];
      require2FA?: boolean;
      attachments_role?: MemberRole;
    } & Partial<OrganizationDataPrivacy>,
  ): Promise<OrganizationRow> {
    const [row] = await sql.query<OrganizationRow>(
      `UPDATE identity.organizations SET slug = COALESCE($2, slug), name = COALESCE($3, name), plan = COALESCE($4, plan),
              features = COALESCE($5::text[], features),
              data_scrubber = COALESCE($6, data_scrubber), data_scrubber_defaults = COALESCE($7, data_scrubber_defaults),
              sensitive_fields = COALESCE($8::text[], sensitive_fields), safe_fields = COALESCE($9::text[], safe_fields),
              scrub_ip_addresses = COALESCE($10, scrub_ip_addresses), store_crash_reports = COALESCE($11, store_crash_reports),
              require_2fa = COALESCE($12, require_2fa), attachments_role = COALESCE($13, attachments_role)
       WHERE id = $1 RETURNING *`,
      [
        id,
        changes.slug ?? null,
        changes.name ?? null,
        changes.plan ?? null,
        changes.features ?? null,
        changes.dataScrubber ?? null,
        changes.dataScrubberDefaults ?? null,
        changes.sensitiveFields ? [...changes.sensitiveFields] : null,
        changes.safeFields ? [...changes.safeFields] : null,
        changes.scrubIPAddresses ?? null,
        changes.storeCrashReports ?? null,
        changes.require2FA ?? null,
        changes.attachments_role ?? null,
      ],
    );
    return row;
  }

  /** Organizations the user belongs to (user tokens) or the token's own organization. */
  async listOrganizations(
    sql: Sql,
    scope: { userId?: string; organizationId?: string; all?: boolean },
    query: string | undefined,
    offset: number,
    limit: number,
  ): Promise<OrganizationRow[]> {
    return sql.query<OrganizationRow>(
      `SELECT o.* FROM identity.organizations o
       WHERE ($6::boolean
              OR ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM identity.organization_members m WHERE m.organization_id = o.id AND m.user_id = $1 AND m.is_active))
              OR o.id = $2::bigint)
         AND ($3::text IS NULL OR o.slug ILIKE '%' || $3 || '%' OR o.name ILIKE '%' || $3 || '%')
       ORDER BY o.name, o.id OFFSET $4 LIMIT $5`,
      [scope.userId ?? null, scope.organizationId ?? null, query ?? null, offset, limit, scope.all === true],
    );
  }

  async insertMember(sql: Sql, member: { organizationId: string; userId: string; role: MemberRole }): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO identity.organization_members (organization_id, user_id, role) VALUES ($1, $2, $3) RETURNING id`,
      [member.organizationId, member.userId, member.role],
    );
    return row.id;
  }

  async findMemberByUser(sql: Sql, organizationId: string, userId: string): Promise<{ id: string; role: MemberRole } | undefined> {
    const [row] = await sql.query<{ id: string; role: MemberRole }>(
      `SELECT id, role FROM identity.organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return row;
  }

  async listMembers(sql: Sql, organizationId: string, offset: number, limit: number): Promise<MemberRow[]> {
    return sql.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY lower(u.email), m.id OFFSET $2 LIMIT $3`,
      [organizationId, offset, limit],
    );
  }

  async listTeamMembers(sql: Sql, organizationId: string, teamId: string, offset: number, limit: number): Promise<MemberRow[]> {
    return sql.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id
       JOIN identity.team_members tm ON tm.member_id = m.id AND tm.team_id = $2
       WHERE m.organization_id = $1 ORDER BY lower(u.email), m.id OFFSET $3 LIMIT $4`,
      [organizationId, teamId, offset, limit],
    );
  }

  async findMember(sql: Sql, organizationId: string, memberId: string): Promise<MemberRow | undefined> {
    if (!isNumericId(memberId)) return undefined;
    const [row] = await sql.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id
       WHERE m.organization_id = $1 AND m.id = $2::bigint`,
      [organizationId, memberId],
    );
    return row;
  }

  async insertTeam(sql: Sql, team: { organizationId: string; slug: string; name: string }): Promise<string> {
    const [row] = await sql.query<{ id: string }>(`INSERT INTO identity.teams (organization_id, slug, name) VALUES ($1, $2, $3) RETURNING id`, [
      team.organizationId,
      team.slug,
      team.name,
    ]);
    return row.id;
  }

  async addTeamMember(sql: Sql, teamId: string, memberId: string): Promise<boolean> {
    return (await sql.execute(`INSERT INTO identity.team_members (team_id, member_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [teamId, memberId])) > 0;
  }

  async findTeam(sql: Sql, organizationId: string, idOrSlug: string, userId?: string): Promise<TeamRow | undefined> {
    const [row] = await sql.query<TeamRow>(
      `SELECT ${TEAM_COLUMNS('$3::bigint')} FROM identity.teams t WHERE t.organization_id = $1 AND ${byIdOrSlug('t', '$2', idOrSlug)}`,
      [organizationId, idOrSlug, userId ?? null],
    );
    return row;
  }

  async listTeams(sql: Sql, organizationId: string, userId: string | undefined, query: string | undefined, offset: number, limit: number): Promise<TeamRow[]> {
    return sql.query<TeamRow>(
      `SELECT ${TEAM_COLUMNS('$2::bigint')} FROM identity.teams t
       WHERE t.organization_id = $1 AND ($3::text IS NULL OR t.slug ILIKE '%' || $3 || '%' OR t.name ILIKE '%' || $3 || '%')
       ORDER BY t.slug OFFSET $4 LIMIT $5`,
      [organizationId, userId ?? null, query ?? null, offset, limit],
    );
  }

  async insertToken(
    sql: Sql,
    token: { kind: TokenKind; userId?: string; organizationId?: string; name: string; hash: string; lastCharacters: string; scopes: string[] },
  ): Promise<TokenRow> {
    const [row] = await sql.query<TokenRow>(
      `INSERT INTO identity.api_tokens (kind, user_id, organization_id, name, token_hash, token_last_characters, scopes)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[])
       RETURNING id, kind, user_id, organization_id, name, token_last_characters, scopes, date_created, expires_at, last_used_at`,
      [token.kind, token.userId ?? null, token.organizationId ?? null, token.name, token.hash, token.lastCharacters, token.scopes],
    );
    return row;
  }

  async listTokens(sql: Sql, owner: { userId?: string; organizationId?: string }, offset: number, limit: number): Promise<TokenRow[]> {
    return sql.query<TokenRow>(
      `SELECT id, kind, user_id, organization_id, name, token_last_characters, scopes, date_created, expires_at, last_used_at
       FROM identity.api_tokens
       WHERE ($1::bigint IS NOT NULL AND kind = 'user' AND user_id = $1) OR ($2::bigint IS NOT NULL AND kind = 'organization' AND organization_id = $2)
       ORDER BY date_created DESC, id DESC OFFSET $3 LIMIT $4`,
      [owner.userId ?? null, owner.organizationId ?? null, offset, limit],
    );
  }

  async findToken(sql: Sql, owner: { userId?: string; organizationId?: string }, tokenId: string): Promise<TokenRow | undefined> {
    if (!isNumericId(tokenId)) return undefined;
    const rows = await this.listTokensWhere(sql, owner, tokenId);
    return rows[0];
  }

  async deleteToken(sql: Sql, tokenId: string): Promise<void> {
    await sql.execute(`DELETE FROM identity.api_tokens WHERE id = $1`, [tokenId]);
  }

  private listTokensWhere(sql: Sql, owner: { userId?: string; organizationId?: string }, tokenId: string): Promise<TokenRow[]> {
    return sql.query<TokenRow>(
      `SELECT id, kind, user_id, organization_id, name, token_last_characters, scopes, date_created, expires_at, last_used_at
       FROM identity.api_tokens
       WHERE id = $3::bigint AND (($1::bigint IS NOT NULL AND kind = 'user' AND user_id = $1)
                                  OR ($2::bigint IS NOT NULL AND kind = 'organization' AND organization_id = $2))`,
      [owner.userId ?? null, owner.organizationId ?? null, tokenId],
    );
  }
}
