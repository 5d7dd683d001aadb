import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { StoredKey } from '../domain/security-keys';

export interface SecurityKeyRow extends StoredKey {
  readonly id: string;
  readonly authenticatorId: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

interface KeyRecord {
  id: string;
  authenticator_id: string;
  credential_id: string;
  public_key: Buffer;
  sign_count: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const KEY_COLUMNS = `k.id::text, k.authenticator_id::text, k.credential_id, k.public_key, k.sign_count, k.transports, k.name, k.created_at, k.last_used_at`;

const fromRecord = (row: KeyRecord): SecurityKeyRow => ({
  id: row.id,
  authenticatorId: row.authenticator_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  signCount: Number(row.sign_count),
  transports: row.transports,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** Users' security keys (under their `u2f` authenticator), pending enrolments, and the WebAuthn challenge of a pending sign-in (see the security-keys migration). */
@Injectable()
export class SecurityKeysRepository {
  async keys(sql: Sql, userId: string, options: { lock?: boolean } = {}): Promise<SecurityKeyRow[]> {
    const rows = await sql.query<KeyRecord>(
      `SELECT ${KEY_COLUMNS} FROM identity.security_keys k JOIN identity.authenticators a ON a.id = k.authenticator_id
       WHERE a.user_id = $1 AND a.type = 'u2f' ORDER BY k.id ${options.lock ? 'FOR UPDATE OF k' : ''}`,
      [userId],
    );
    return rows.map(fromRecord);
  }

  async insertEnrolment(sql: Sql, enrolment: { challengeHash: string; sessionId: string; expiresAt: Date }, now: Date): Promise<void> {
    await sql.execute(`DELETE FROM identity.security_key_enrolments WHERE expires_at < $1`, [now]);
    await sql.execute(`INSERT INTO identity.security_key_enrolments (challenge_hash, session_id, expires_at) VALUES ($1, $2, $3)`, [
      enrolment.challengeHash,
      enrolment.sessionId,
      enrolment.expiresAt,
    ]);
  }

  /** Spends a live enrolment of this session; false when there is none with this challenge. */
  async spendEnrolment(sql: Sql, challengeHash: string, sessionId: string, now: Date): Promise<boolean> {
    const rows = await sql.query(
      `DELETE FROM identity.security_key_enrolments WHERE challenge_hash = $1 AND session_id = $2 AND expires_at >= $3 RETURNING 1`,
      [challengeHash, sessionId, now],
    );
    return rows.length > 0;
  }

  /** The user's `u2f` authenticator, made on the first key. */
  async ensureAuthenticator(sql: Sql, userId: string, now: Date): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO identity.authenticators (user_id, type, created_at) VALUES ($1, 'u2f', $2)
       ON CONFLICT (user_id, type) DO UPDATE SET type = EXCLUDED.type RETURNING id::text`,
      [userId, now],
    );
    return row.id;
  }

  /** Stores a key; false when this credential is enrolled already. */
  async insertKey(sql: Sql, authenticatorId: string, key: StoredKey, name: string, now: Date): Promise<boolean> {
    const rows = await sql.query(
      `INSERT INTO identity.security_keys (authenticator_id, credential_id, public_key, sign_count, transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
      [authenticatorId, key.credentialId, Buffer.from(key.publicKey), key.signCount, key.transports, name, now],
    );
    return rows.length > 0;
  }

  async renameKey(sql: Sql, userId: string, authenticatorId: string, credentialId: string, name: string): Promise<boolean> {
    const rows = await sql.query(
      `UPDATE identity.security_keys k SET name = $4 FROM identity.authenticators a
       WHERE a.id = k.authenticator_id AND a.user_id = $1 AND a.id = $2 AND k.credential_id = $3 RETURNING k.id`,
      [userId, authenticatorId, credentialId, name],
    );
    return rows.length > 0;
  }

  /** Removes one key; the last one takes its `u2f` authenticator with it. Answers how many keys are left, or undefined when there was no such key. */
  async deleteKey(sql: Sql, userId: string, authenticatorId: string, credentialId: string): Promise<number | undefined> {
    const [deleted] = await sql.query<{ id: string }>(
      `DELETE FROM identity.security_keys k USING identity.authenticators a
       WHERE a.id = k.authenticator_id AND a.user_id = $1 AND a.id = $2 AND a.type = 'u2f' AND k.credential_id = $3 RETURNING k.id`,
      [userId, authenticatorId, credentialId],
    );
    if (!deleted) return undefined;
    const [left] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM identity.security_keys WHERE authenticator_id = $1`, [
      authenticatorId,
    ]);
    if (left.count === 0) await sql.execute(`DELETE FROM identity.authenticators WHERE id = $1`, [authenticatorId]);
    return left.count;
  }

  async recordUse(sql: Sql, key: SecurityKeyRow, signCount: number, now: Date): Promise<void> {
    await sql.execute(`UPDATE identity.security_keys SET sign_count = $2, last_used_at = $3 WHERE id = $1`, [key.id, signCount, now]);
    await sql.execute(`UPDATE identity.authenticators SET last_used_at = $2 WHERE id = $1`, [key.authenticatorId, now]);
  }

  /** Gives a live sign-in challenge a new WebAuthn challenge (replacing any earlier one); false when the sign-in is unknown or over. */
  async setSignInChallenge(sql: Sql, tokenHash: string, challengeHash: string, now: Date): Promise<boolean> {
    const rows = await sql.query(
      `UPDATE identity.two_factor_challenges SET webauthn_challenge_hash = $2 WHERE token_hash = $1 AND expires_at >= $3 RETURNING 1`,
      [tokenHash, challengeHash, now],
    );
    return rows.length > 0;
  }

  /** Takes the sign-in's WebAuthn challenge: each one is good for one signature, right or wrong. */
  async takeSignInChallenge(sql: Sql, tokenHash: string): Promise<string | undefined> {
    const [row] = await sql.query<{ taken: string | null }>(
      `UPDATE identity.two_factor_challenges c SET webauthn_challenge_hash = NULL
       FROM (SELECT token_hash, webauthn_challenge_hash AS taken FROM identity.two_factor_challenges WHERE token_hash = $1 FOR UPDATE) old
       WHERE c.token_hash = old.token_hash RETURNING old.taken`,
      [tokenHash],
    );
    return row?.taken ?? undefined;
  }
}
