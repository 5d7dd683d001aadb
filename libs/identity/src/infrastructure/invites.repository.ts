import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';

export interface InviteRow {
  id: string;
  organization_id: string;
  organization_slug: string;
  organization_name: string;
  email: string;
  role: string;
  team_ids: string[];
  team_slugs: string[];
  token: string;
  expires_at: Date;
  inviter_name: string | null;
  date_created: Date;
}

const INVITE = `SELECT i.id::text, i.organization_id::text, o.slug AS organization_slug, o.name AS organization_name, i.email, i.role,
    i.team_ids::text[] AS team_ids, ARRAY(SELECT t.slug FROM identity.teams t WHERE t.id = ANY(i.team_ids) ORDER BY t.slug) AS team_slugs, i.token, i.expires_at, COALESCE(NULLIF(u.name, ''), u.email) AS inviter_name, i.date_created
  FROM identity.organization_invites i JOIN identity.organizations o ON o.id = i.organization_id LEFT JOIN identity.users u ON u.id = i.inviter_user_id`;

/** Pending members invited by e-mail. */
@Injectable()
export class InvitesRepository {
  /** Null when the address is already invited to the organization. */
  async insert(
    sql: Sql,
    invite: { organizationId: string; email: string; role: string; teamIds: readonly string[]; token: string; expiresAt: Date; inviterUserId: string | null },
  ): Promise<string | null> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO identity.organization_invites (organization_id, email, role, team_ids, token, expires_at, inviter_user_id)
       VALUES ($1, $2, $3, $4::bigint[], $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id::text`,
      [invite.organizationId, invite.email, invite.role, invite.teamIds, invite.token, invite.expiresAt.toISOString(), invite.inviterUserId],
    );
    return row?.id ?? null;
  }

  async isMember(sql: Sql, organizationId: string, email: string): Promise<boolean> {
    const rows = await sql.query(
      `SELECT 1 FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`,
      [organizationId, email],
    );
    return rows.length > 0;
  }

  /** The ids of the organization's teams with these slugs (or ids); absent ones are left out. */
  async teamIds(sql: Sql, organizationId: string, slugs: readonly string[]): Promise<Map<string, string>> {
    if (slugs.length === 0) return new Map();
    const rows = await sql.query<{ id: string; slug: string }>(
      `SELECT id::text, slug FROM identity.teams WHERE organization_id = $1 AND (slug = ANY($2::text[]) OR id::text = ANY($2::text[]))`,
      [organizationId, slugs],
    );
    const bySlug = new Map<string, string>();
    for (const row of rows) {
      bySlug.set(row.slug, row.id);
      bySlug.set(row.id, row.id);
    }
    return bySlug;
  }

  /** The invite, locked for the caller's change when `forUpdate`; of one organization when given. */
  async find(sql: Sql, id: string, organizationId?: string, forUpdate = false): Promise<InviteRow | null> {
    if (!isNumericId(id)) return null;
    const [row] = await sql.query<InviteRow>(
      `${INVITE} WHERE i.id = $1 AND ($2::bigint IS NULL OR i.organization_id = $2::bigint) ${forUpdate ? 'FOR UPDATE OF i' : ''}`,
      [id, organizationId ?? null],
    );
    return row ?? null;
  }

  async list(sql: Sql, organizationId: string, offset: number, limit: number): Promise<InviteRow[]> {
    return sql.query<InviteRow>(`${INVITE} WHERE i.organization_id = $1 ORDER BY i.id OFFSET $2 LIMIT $3`, [organizationId, offset, limit]);
  }

  async renew(sql: Sql, id: string, token: string, expiresAt: Date): Promise<void> {
    await sql.execute(`UPDATE identity.organization_invites SET token = $2, expires_at = $3 WHERE id = $1`, [id, token, expiresAt.toISOString()]);
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.execute(`DELETE FROM identity.organization_invites WHERE id = $1`, [id]);
  }

  async createUser(sql: Sql, email: string, name: string, passwordHash: string): Promise<string> {
    const [row] = await sql.query<{ id: string }>(`INSERT INTO identity.users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id::text`, [
      email,
      name,
      passwordHash,
    ]);
    return row.id;
  }

  /** The pending member becomes a member under its id, in its teams. */
  async join(sql: Sql, invite: InviteRow, userId: string): Promise<void> {
    await sql.execute(`INSERT INTO identity.organization_members (id, organization_id, user_id, role) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4)`, [
      invite.id,
      invite.organization_id,
      userId,
      invite.role,
    ]);
    await sql.execute(
      `INSERT INTO identity.team_members (team_id, member_id) SELECT t.id, $1 FROM identity.teams t WHERE t.id = ANY($2::bigint[]) AND t.organization_id = $3 ON CONFLICT DO NOTHING`,
      [invite.id, invite.team_ids, invite.organization_id],
    );
  }
}
