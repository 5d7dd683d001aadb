import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface SessionRow {
  id: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface LiveSessionRow {
  id: string;
  date_created: Date;
  expires_at: Date;
  user_agent: string | null;
  ip_address: string | null;
}

export interface SignInCandidate {
  id: string;
  email: string;
  name: string;
  is_superuser: boolean;
  is_active: boolean;
  password_hash: string | null;
}

/** Users' passwords and their browser sessions (see the web-sessions migration). */
@Injectable()
export class SessionsRepository {
  async findUserByEmail(sql: Sql, email: string): Promise<SignInCandidate | undefined> {
    const [row] = await sql.query<SignInCandidate>(
      `SELECT id, email, name, is_superuser, is_active, password_hash FROM identity.users WHERE lower(email) = lower($1)`,
      [email],
    );
    return row;
  }

  async findUserById(sql: Sql, userId: string): Promise<SignInCandidate | undefined> {
    const [row] = await sql.query<SignInCandidate>(`SELECT id::text, email, name, is_superuser, is_active, password_hash FROM identity.users WHERE id = $1`, [
      userId,
    ]);
    return row;
  }

  async setPassword(sql: Sql, userId: string, passwordHash: string): Promise<boolean> {
    const rows = await sql.query(`UPDATE identity.users SET password_hash = $2 WHERE id = $1 RETURNING id`, [userId, passwordHash]);
    return rows.length > 0;
  }

  async insertSession(
    sql: Sql,
    session: {
      userId: string;
      tokenHash: string;
      csrfToken: string;
      createdAt: Date;
      expiresAt: Date;
      userAgent: string | null;
      ipAddress: string | null;
      /** The organization whose single sign-on this session passed. */
      ssoOrganizationId?: string;
    },
  ): Promise<SessionRow> {
    const [row] = await sql.query<SessionRow>(
      `INSERT INTO identity.user_sessions (user_id, token_hash, csrf_token, expires_at, user_agent, ip_address, sso_organization_id, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, user_id, csrf_token, expires_at, revoked_at`,
      [
        session.userId,
        session.tokenHash,
        session.csrfToken,
        session.expiresAt,
        session.userAgent,
        session.ipAddress,
        session.ssoOrganizationId ?? null,
        session.createdAt,
      ],
    );
    return row;
  }

  async findSession(sql: Sql, sessionId: string): Promise<{ csrf_token: string; expires_at: Date } | undefined> {
    const [row] = await sql.query<{ csrf_token: string; expires_at: Date }>(`SELECT csrf_token, expires_at FROM identity.user_sessions WHERE id = $1`, [
      sessionId,
    ]);
    return row;
  }

  /** Revokes a live session; answers its user, or undefined when it was already over. */
  async revokeSession(sql: Sql, sessionId: string): Promise<string | undefined> {
    const [row] = await sql.query<{ user_id: string }>(
      `UPDATE identity.user_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING user_id`,
      [sessionId],
    );
    return row?.user_id;
  }

  /** The user's sessions still in force, newest first (bounded: a user rarely has more browsers than this). */
  async liveSessions(sql: Sql, userId: string, now: Date): Promise<LiveSessionRow[]> {
    return sql.query<LiveSessionRow>(
      `SELECT id::text, date_created, expires_at, user_agent, ip_address FROM identity.user_sessions
       WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY id DESC LIMIT 100`,
      [userId, now],
    );
  }

  /** Sessions past their expiry (revoked ones included) are of no use to anyone. */
  async pruneExpired(sql: Sql, before: Date): Promise<void> {
    await sql.execute(`DELETE FROM identity.user_sessions WHERE expires_at < $1`, [before]);
  }
}
