import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';
import type { MemberEmail, MemberName, MemberProfile, ProvisionedMember } from '../domain/member-profile';
import type { MemberRole } from '../domain/roles';

interface ProvisionedMemberRow {
  member_id: string;
  user_id: string;
  user_name: string;
  role: MemberRole;
  is_active: boolean;
  external_id: string | null;
  display_name: string | null;
  name_parts: MemberName | null;
  emails: MemberEmail[];
  version: number;
  date_created: Date;
  date_updated: Date;
}

export interface LockedTeam {
  id: string;
  slug: string;
  name: string;
  external_id: string | null;
  version: number;
}

const toMember = (row: ProvisionedMemberRow): ProvisionedMember => ({
  memberId: row.member_id,
  userId: row.user_id,
  userName: row.user_name,
  name: row.name_parts,
  displayName: row.display_name,
  emails: row.emails.length ? row.emails : [{ value: row.user_name, type: 'work', primary: true }],
  externalId: row.external_id,
  active: row.is_active,
  role: row.role,
  version: row.version,
  created: row.date_created,
  lastModified: row.date_updated,
});

const MEMBER_COLUMNS = `m.id AS member_id, m.user_id, m.user_name, m.role, m.is_active, m.external_id, m.display_name, m.name_parts, m.emails,
  m.version, m.date_created, m.date_updated`;

/** SQL for what identity providers change: provisioned members and teams. */
@Injectable()
export class ProvisioningRepository {
  /**
   * Adds a member for the user with the profile's e-mail (compared without case), creating the
   * user (as the organization's own) when there is none, in one statement. The member's userName
   * is the user's e-mail. Undefined when the user is a member already, when another member has that
   * userName, or when another transaction created the user meanwhile (`insertMemberOfUser` then decides).
   */
  async insertMemberWithUser(sql: Sql, organizationId: string, profile: MemberProfile, userName: string): Promise<ProvisionedMember | undefined> {
    const [row] = await sql.query<ProvisionedMemberRow>(
      `WITH created_user AS (
         INSERT INTO identity.users (email, name, provisioned_by_organization_id) VALUES ($2, $3, $1) ON CONFLICT ((lower(email))) DO NOTHING RETURNING id, email
       ), the_user AS (
         SELECT id, email FROM created_user
         UNION ALL
         SELECT id, email FROM identity.users WHERE lower(email) = lower($2) AND NOT EXISTS (SELECT 1 FROM created_user)
       ), m AS (
         INSERT INTO identity.organization_members (organization_id, user_id, user_name, role, is_active, external_id, display_name, name_parts, emails, idp_provisioned)
         SELECT $1, id, email, $4, $5, $6, $7, $8::jsonb, $9::jsonb, true FROM the_user
         ON CONFLICT DO NOTHING
         RETURNING *
       )
       SELECT ${MEMBER_COLUMNS} FROM m`,
      [
        organizationId,
        profile.userName,
        userName,
        profile.role,
        profile.active,
        profile.externalId,
        profile.displayName,
        json(profile.name),
        JSON.stringify(profile.emails),
      ],
    );
    return row ? toMember(row) : undefined;
  }

  /** The user with this e-mail (compared without case), created as the organization's own when there is none. */
  async findOrCreateUser(sql: Sql, organizationId: string, email: string, name: string): Promise<string> {
    const [created] = await sql.query<{ id: string }>(
      `INSERT INTO identity.users (email, name, provisioned_by_organization_id) VALUES ($1, $2, $3) ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [email, name, organizationId],
    );
    if (created) return created.id;
    const [existing] = await sql.query<{ id: string }>(`SELECT id FROM identity.users WHERE lower(email) = lower($1)`, [email]);
    return existing.id;
  }

  /** Inserts the membership, its userName the user's e-mail; undefined when the user is a member already or another member has that userName. */
  async insertMemberOfUser(sql: Sql, organizationId: string, userId: string, profile: MemberProfile): Promise<ProvisionedMember | undefined> {
    const [row] = await sql.query<ProvisionedMemberRow>(
      `WITH m AS (
         INSERT INTO identity.organization_members (organization_id, user_id, user_name, role, is_active, external_id, display_name, name_parts, emails, idp_provisioned)
         SELECT $1, id, email, $3, $4, $5, $6, $7::jsonb, $8::jsonb, true FROM identity.users WHERE id = $2
         ON CONFLICT DO NOTHING RETURNING *
       )
       SELECT ${MEMBER_COLUMNS} FROM m`,
      [organizationId, userId, profile.role, profile.active, profile.externalId, profile.displayName, json(profile.name), JSON.stringify(profile.emails)],
    );
    return row ? toMember(row) : undefined;
  }

  /** The member, locked until the transaction ends, so concurrent changes apply one after another. */
  async lockMember(sql: Sql, organizationId: string, memberId: string): Promise<ProvisionedMember | undefined> {
    if (!isNumericId(memberId)) return undefined;
    await queueFor(sql, `member-${memberId}`);
    const [row] = await sql.query<ProvisionedMemberRow>(
      `SELECT ${MEMBER_COLUMNS}
       FROM identity.organization_members m
       WHERE m.organization_id = $1 AND m.id = $2::bigint FOR UPDATE`,
      [organizationId, memberId],
    );
    return row ? toMember(row) : undefined;
  }

  async updateMember(sql: Sql, memberId: string, profile: MemberProfile): Promise<{ version: number; date_updated: Date }> {
    const [row] = await sql.query<{ version: number; date_updated: Date }>(
      `UPDATE identity.organization_members SET user_name = $2, role = $3, is_active = $4, external_id = $5, display_name = $6, name_parts = $7::jsonb,
              emails = $8::jsonb, version = version + 1, date_updated = now()
       WHERE id = $1 RETURNING version, date_updated`,
      [memberId, profile.userName, profile.role, profile.active, profile.externalId, profile.displayName, json(profile.name), JSON.stringify(profile.emails)],
    );
    return row;
  }

  /** Whether another member of the organization has this userName (compared without case). */
  async userNameTakenByAnother(sql: Sql, organizationId: string, userName: string, memberId: string): Promise<boolean> {
    const rows = await sql.query(`SELECT 1 FROM identity.organization_members WHERE organization_id = $1 AND lower(user_name) = lower($2) AND id <> $3`, [
      organizationId,
      userName,
      memberId,
    ]);
    return rows.length > 0;
  }

  /**
   * Whether the organization alone holds the user account: its provisioning created it, no other
   * organization has it as a member, and it is no instance administrator's. The account is locked
   * first, so no other organization can add it as a member until this transaction ends (adding
   * one takes a key-share lock on it), and the check, a statement after the lock, sees any that did.
   */
  async ownsAccount(sql: Sql, organizationId: string, userId: string): Promise<boolean> {
    const [account] = await sql.query<{ owned: boolean }>(
      `SELECT provisioned_by_organization_id IS NOT DISTINCT FROM $2::bigint AND NOT is_superuser AS owned FROM identity.users WHERE id = $1 FOR UPDATE`,
      [userId, organizationId],
    );
    if (!account?.owned) return false;
    const elsewhere = await sql.query(`SELECT 1 FROM identity.organization_members WHERE user_id = $1 AND organization_id <> $2 LIMIT 1`, [
      userId,
      organizationId,
    ]);
    return elsewhere.length === 0;
  }

  async emailTakenByAnother(sql: Sql, email: string, userId: string): Promise<boolean> {
    const rows = await sql.query(`SELECT 1 FROM identity.users WHERE lower(email) = lower($1) AND id <> $2`, [email, userId]);
    return rows.length > 0;
  }

  async changeUserEmail(sql: Sql, userId: string, email: string): Promise<void> {
    await sql.execute(`UPDATE identity.users SET email = $2 WHERE id = $1`, [userId, email]);
  }

  /** Whether another active owner would be left if this member lost its ownership or access. */
  async otherActiveOwnerExists(sql: Sql, organizationId: string, memberId: string): Promise<boolean> {
    const rows = await sql.query(
      `SELECT 1 FROM identity.organization_members WHERE organization_id = $1 AND id <> $2 AND role = 'owner' AND is_active LIMIT 1`,
      [organizationId, memberId],
    );
    return rows.length > 0;
  }

  async deleteMember(sql: Sql, memberId: string): Promise<void> {
    await sql.execute(`DELETE FROM identity.organization_members WHERE id = $1`, [memberId]);
  }

  async insertTeam(sql: Sql, team: { organizationId: string; slug: string; name: string; externalId: string | null }): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO identity.teams (organization_id, slug, name, external_id, idp_provisioned) VALUES ($1, $2, $3, $4, true) RETURNING id`,
      [team.organizationId, team.slug, team.name, team.externalId],
    );
    return row.id;
  }

  async lockTeam(sql: Sql, organizationId: string, teamId: string): Promise<LockedTeam | undefined> {
    if (!isNumericId(teamId)) return undefined;
    await queueFor(sql, `team-${teamId}`);
    const [row] = await sql.query<LockedTeam>(
      `SELECT id, slug, name, external_id, version FROM identity.teams WHERE organization_id = $1 AND id = $2::bigint FOR UPDATE`,
      [organizationId, teamId],
    );
    return row;
  }

  async teamMemberIds(sql: Sql, teamId: string): Promise<string[]> {
    const rows = await sql.query<{ member_id: string }>(`SELECT member_id FROM identity.team_members WHERE team_id = $1 ORDER BY member_id`, [teamId]);
    return rows.map((row) => row.member_id);
  }

  /** Those of `memberIds` that are not members of the organization. */
  async unknownMemberIds(sql: Sql, organizationId: string, memberIds: readonly string[]): Promise<string[]> {
    const wellFormed = memberIds.filter((id) => isNumericId(id));
    const rows = await sql.query<{ id: string }>(`SELECT id FROM identity.organization_members WHERE organization_id = $1 AND id = ANY($2::bigint[])`, [
      organizationId,
      wellFormed,
    ]);
    const known = new Set(rows.map((row) => row.id));
    return memberIds.filter((id) => !known.has(id));
  }

  async addTeamMembers(sql: Sql, teamId: string, memberIds: readonly string[]): Promise<void> {
    if (memberIds.length === 0) return;
    await sql.execute(`INSERT INTO identity.team_members (team_id, member_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [teamId, memberIds]);
  }

  async removeTeamMembers(sql: Sql, teamId: string, memberIds: readonly string[]): Promise<void> {
    if (memberIds.length === 0) return;
    await sql.execute(`DELETE FROM identity.team_members WHERE team_id = $1 AND member_id = ANY($2::bigint[])`, [teamId, memberIds]);
  }

  async updateTeam(sql: Sql, teamId: string, team: { slug: string; name: string; externalId: string | null }): Promise<number> {
    const [row] = await sql.query<{ version: number }>(
      `UPDATE identity.teams SET slug = $2, name = $3, external_id = $4, version = version + 1, date_updated = now() WHERE id = $1 RETURNING version`,
      [teamId, team.slug, team.name, team.externalId],
    );
    return row.version;
  }

  async deleteTeam(sql: Sql, teamId: string): Promise<void> {
    await sql.execute(`DELETE FROM identity.teams WHERE id = $1`, [teamId]);
  }
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * Waits for the entity's earlier writers before this transaction takes a transaction id (an
 * advisory lock takes none, a row lock does). Writers then get ids in the order they append to the
 * entity's stream, which the event store requires; with only the row lock, a waiter holding an
 * older id could be overtaken and fail with ConcurrencyError.
 */
async function queueFor(sql: Sql, key: string): Promise<void> {
  await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
}
