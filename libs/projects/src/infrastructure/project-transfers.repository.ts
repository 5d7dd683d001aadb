import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { PendingTransfer } from '../domain/project-transfer';

/** An organization the user owns, as the accept page offers it. */
export interface OwnedOrganization {
  id: string;
  slug: string;
  name: string;
}

export interface LockedTransfer extends PendingTransfer {
  id: string;
}

@Injectable()
export class ProjectTransfersRepository {
  /** The active owner (of any organization) with this address, as Sentry finds the recipient. */
  async ownerByEmail(sql: Sql, email: string): Promise<{ userId: string; email: string } | undefined> {
    const [row] = await sql.query<{ user_id: string; email: string }>(
      `SELECT user_id::text AS user_id, email FROM identity.member_directory
       WHERE lower(email) = lower($1) AND role = 'owner' AND is_active ORDER BY user_id LIMIT 1`,
      [email],
    );
    return row ? { userId: row.user_id, email: row.email } : undefined;
  }

  async organizationName(sql: Sql, organizationId: string): Promise<string> {
    const [row] = await sql.query<{ name: string }>(`SELECT name FROM identity.organization_directory WHERE id = $1::bigint`, [organizationId]);
    return row?.name ?? '';
  }

  async userName(sql: Sql, userId: string | undefined): Promise<string | null> {
    if (!userId) return null;
    const [row] = await sql.query<{ name: string }>(`SELECT name FROM identity.member_directory WHERE user_id = $1::bigint AND name <> '' LIMIT 1`, [userId]);
    return row?.name ?? null;
  }

  /** The organizations the user owns, by slug. */
  async ownedOrganizations(sql: Sql, userId: string): Promise<OwnedOrganization[]> {
    return sql.query<OwnedOrganization>(
      `SELECT o.id::text AS id, o.slug, o.name FROM identity.member_directory m JOIN identity.organization_directory o ON o.id = m.organization_id
       WHERE m.user_id = $1::bigint AND m.role = 'owner' AND m.is_active ORDER BY o.slug`,
      [userId],
    );
  }

  async insert(
    sql: Sql,
    transfer: {
      projectId: string;
      fromOrganizationId: string;
      recipientUserId: string;
      recipientEmail: string;
      requestedBy: string | null;
      tokenHash: string;
      now: Date;
      expiresAt: Date;
    },
  ): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO projects.project_transfers (project_id, from_organization_id, recipient_user_id, recipient_email, requested_by, token_hash, date_created, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text AS id`,
      [
        transfer.projectId,
        transfer.fromOrganizationId,
        transfer.recipientUserId,
        transfer.recipientEmail,
        transfer.requestedBy,
        transfer.tokenHash,
        transfer.now,
        transfer.expiresAt,
      ],
    );
    return row.id;
  }

  /** The transfer of this link; `lock` holds it until the transaction ends, so it is used once. */
  async findByHash(sql: Sql, tokenHash: string, lock: boolean): Promise<LockedTransfer | null> {
    const [row] = await sql.query<{
      id: string;
      project_id: string;
      from_organization_id: string;
      recipient_user_id: string;
      expires_at: Date;
      used_at: Date | null;
    }>(
      `SELECT id::text AS id, project_id::text AS project_id, from_organization_id::text AS from_organization_id,
              recipient_user_id::text AS recipient_user_id, expires_at, used_at
       FROM projects.project_transfers WHERE token_hash = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [tokenHash],
    );
    if (!row) return null;
    return {
      id: row.id,
      projectId: row.project_id,
      fromOrganizationId: row.from_organization_id,
      recipientUserId: row.recipient_user_id,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    };
  }

  /** Links the project sent since `since` (its row is locked by the caller, so counts do not race). */
  async sentSince(sql: Sql, projectId: string, since: Date): Promise<number> {
    const [row] = await sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM projects.project_transfers WHERE project_id = $1 AND date_created > $2`,
      [projectId, since],
    );
    return row.count;
  }

  async markUsed(sql: Sql, transferId: string, now: Date): Promise<void> {
    await sql.query(`UPDATE projects.project_transfers SET used_at = $2 WHERE id = $1`, [transferId, now]);
  }

  /** Moves the project: the teams of the old organization no longer reach it, nor do its members' bookmarks. */
  async move(sql: Sql, projectId: string, toOrganizationId: string): Promise<void> {
    await sql.query(`UPDATE projects.projects SET organization_id = $2 WHERE id = $1`, [projectId, toOrganizationId]);
    await sql.query(`DELETE FROM projects.project_teams WHERE project_id = $1`, [projectId]);
    await sql.query(`DELETE FROM projects.project_bookmarks WHERE project_id = $1`, [projectId]);
  }

  async publicKeys(sql: Sql, projectId: string): Promise<string[]> {
    const rows = await sql.query<{ public_key: string }>(`SELECT public_key FROM projects.project_keys WHERE project_id = $1 ORDER BY id`, [projectId]);
    return rows.map((row) => row.public_key);
  }
}
