import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { TWO_FACTOR_LIMITS } from '../domain/two-factor';

export interface AuthenticatorRow {
  id: string;
  type: 'totp' | 'recovery' | 'u2f';
  totp_secret: string | null;
  last_time_step: string | null;
  codes_left: number | null;
  created_at: Date;
  last_used_at: Date | null;
}

export interface FailureWindow {
  windowStartedAt: Date;
  failures: number;
}

const AUTHENTICATOR_COLUMNS = `id, type, totp_secret, last_time_step, cardinality(recovery_code_hashes) AS codes_left, created_at, last_used_at`;

/** Users' authenticators, the pending second steps of sign-ins, and failed codes (see the two-factor migration). */
@Injectable()
export class TwoFactorRepository {
  async authenticators(sql: Sql, userId: string): Promise<AuthenticatorRow[]> {
    return sql.query<AuthenticatorRow>(`SELECT ${AUTHENTICATOR_COLUMNS} FROM identity.authenticators WHERE user_id = $1 ORDER BY id`, [userId]);
  }

  /** The user's TOTP authenticator, locked for the code check that follows. */
  async lockTotp(sql: Sql, userId: string): Promise<AuthenticatorRow | undefined> {
    const [row] = await sql.query<AuthenticatorRow>(
      `SELECT ${AUTHENTICATOR_COLUMNS} FROM identity.authenticators WHERE user_id = $1 AND type = 'totp' FOR UPDATE`,
      [userId],
    );
    return row;
  }

  /** The user's second factors (an authenticator app, security keys), recovery codes aside. */
  async secondFactors(sql: Sql, userId: string): Promise<Array<'totp' | 'u2f'>> {
    const rows = await sql.query<{ type: 'totp' | 'u2f' }>(
      `SELECT type FROM identity.authenticators WHERE user_id = $1 AND type IN ('totp', 'u2f') ORDER BY type`,
      [userId],
    );
    return rows.map((row) => row.type);
  }

  async hasSecondFactor(sql: Sql, userId: string): Promise<boolean> {
    return (await this.secondFactors(sql, userId)).length > 0;
  }

  /** Enrols a TOTP app; false when the user already has one. */
  async insertTotp(sql: Sql, userId: string, secret: string, timeStep: number, now: Date): Promise<boolean> {
    const rows = await sql.query(
      `INSERT INTO identity.authenticators (user_id, type, totp_secret, last_time_step, created_at, last_used_at)
       VALUES ($1, 'totp', $2, $3, $4, $4) ON CONFLICT (user_id, type) DO NOTHING RETURNING id`,
      [userId, secret, timeStep, now],
    );
    return rows.length > 0;
  }

  /** Replaces the user's recovery codes (creating them on first enrolment). */
  async replaceRecoveryCodes(sql: Sql, userId: string, hashes: readonly string[], now: Date): Promise<void> {
    await sql.execute(
      `INSERT INTO identity.authenticators (user_id, type, recovery_code_hashes, created_at)
       VALUES ($1, 'recovery', $2, $3)
       ON CONFLICT (user_id, type) DO UPDATE SET recovery_code_hashes = EXCLUDED.recovery_code_hashes, created_at = EXCLUDED.created_at`,
      [userId, hashes, now],
    );
  }

  async recordTotpUse(sql: Sql, authenticatorId: string, timeStep: number, now: Date): Promise<void> {
    await sql.execute(`UPDATE identity.authenticators SET last_time_step = $2, last_used_at = $3 WHERE id = $1`, [authenticatorId, timeStep, now]);
  }

  /** Spends one recovery code; false when the user has no such unused code. */
  async spendRecoveryCode(sql: Sql, userId: string, hash: string, now: Date): Promise<boolean> {
    const rows = await sql.query(
      `UPDATE identity.authenticators SET recovery_code_hashes = array_remove(recovery_code_hashes, $2), last_used_at = $3
       WHERE user_id = $1 AND type = 'recovery' AND $2 = ANY (recovery_code_hashes) RETURNING id`,
      [userId, hash, now],
    );
    return rows.length > 0;
  }

  /** Removes one of the user's authenticators; removing the last second factor removes the recovery codes with it. */
  async deleteAuthenticator(sql: Sql, userId: string, authenticatorId: string): Promise<AuthenticatorRow['type'] | undefined> {
    const [row] = await sql.query<{ type: AuthenticatorRow['type'] }>(`DELETE FROM identity.authenticators WHERE user_id = $1 AND id = $2 RETURNING type`, [
      userId,
      authenticatorId,
    ]);
    if (row && row.type !== 'recovery') await this.dropOrphanRecoveryCodes(sql, userId);
    return row?.type;
  }

  /** Recovery codes stand in for a second factor; with none left they go too. */
  async dropOrphanRecoveryCodes(sql: Sql, userId: string): Promise<void> {
    if (!(await this.hasSecondFactor(sql, userId))) await sql.execute(`DELETE FROM identity.authenticators WHERE user_id = $1 AND type = 'recovery'`, [userId]);
  }

  async hasRecoveryCodes(sql: Sql, userId: string): Promise<boolean> {
    const rows = await sql.query(`SELECT 1 FROM identity.authenticators WHERE user_id = $1 AND type = 'recovery'`, [userId]);
    return rows.length > 0;
  }

  /** The organizations that require a second factor and have this user as an active member. */
  async organizationsRequiring2fa(sql: Sql, userId: string): Promise<string[]> {
    const rows = await sql.query<{ slug: string }>(
      `SELECT o.slug FROM identity.organizations o JOIN identity.organization_members m ON m.organization_id = o.id
       WHERE m.user_id = $1 AND m.is_active AND o.require_2fa ORDER BY o.slug`,
      [userId],
    );
    return rows.map((row) => row.slug);
  }

  async insertChallenge(sql: Sql, challenge: { tokenHash: string; userId: string; expiresAt: Date }, now: Date): Promise<void> {
    await sql.execute(`DELETE FROM identity.two_factor_challenges WHERE expires_at < $1`, [now]);
    await sql.execute(`INSERT INTO identity.two_factor_challenges (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
      challenge.tokenHash,
      challenge.userId,
      challenge.expiresAt,
    ]);
  }

  /** Counts an attempt against a live challenge and answers its user and attempts so far; undefined when it is unknown or expired. */
  async attemptChallenge(sql: Sql, tokenHash: string, now: Date): Promise<{ userId: string; attempts: number } | undefined> {
    const [row] = await sql.query<{ user_id: string; attempts: number }>(
      `UPDATE identity.two_factor_challenges SET attempts = attempts + 1 WHERE token_hash = $1 AND expires_at >= $2 RETURNING user_id, attempts`,
      [tokenHash, now],
    );
    return row ? { userId: row.user_id, attempts: row.attempts } : undefined;
  }

  /** The user of a live challenge that has attempts left. */
  async challengeUser(sql: Sql, tokenHash: string, now: Date): Promise<string | undefined> {
    const [row] = await sql.query<{ user_id: string }>(
      `SELECT user_id::text FROM identity.two_factor_challenges WHERE token_hash = $1 AND expires_at >= $2 AND attempts < $3`,
      [tokenHash, now, TWO_FACTOR_LIMITS.attemptsPerChallenge],
    );
    return row?.user_id;
  }

  async deleteChallenge(sql: Sql, tokenHash: string): Promise<void> {
    await sql.execute(`DELETE FROM identity.two_factor_challenges WHERE token_hash = $1`, [tokenHash]);
  }

  async lockFailures(sql: Sql, userId: string): Promise<FailureWindow | undefined> {
    const [row] = await sql.query<{ window_started_at: Date; failures: number }>(
      `SELECT window_started_at, failures FROM identity.two_factor_failures WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    return row ? { windowStartedAt: row.window_started_at, failures: row.failures } : undefined;
  }

  async saveFailures(sql: Sql, userId: string, window: FailureWindow): Promise<void> {
    await sql.execute(
      `INSERT INTO identity.two_factor_failures (user_id, window_started_at, failures) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET window_started_at = EXCLUDED.window_started_at, failures = EXCLUDED.failures`,
      [userId, window.windowStartedAt, window.failures],
    );
  }

  async setRequire2fa(sql: Sql, organizationId: string, required: boolean): Promise<void> {
    await sql.execute(`UPDATE identity.organizations SET require_2fa = $2 WHERE id = $1`, [organizationId, required]);
  }
}
