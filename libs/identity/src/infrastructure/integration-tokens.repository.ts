import { isNumericId } from '@faultline/kernel';
import { Injectable } from '@nestjs/common';
import type { Sql, Transaction } from '@faultline/platform';
import { commonScopes } from '@faultline/kernel';
import { type IntegrationTokenSummary, type IssuedIntegrationToken, IntegrationTokens } from '../contracts/integration-tokens';
import { issueToken } from '../domain/api-token';
import { AuthCache } from './auth-cache';

@Injectable()
export class IntegrationTokenStore extends IntegrationTokens {
  constructor(private readonly cache: AuthCache) {
    super();
  }

  async issue(
    tx: Transaction,
    token: { organizationId: string; name: string; scopes: readonly string[]; expiresAt: Date | null },
  ): Promise<IssuedIntegrationToken> {
    const issued = issueToken('integration');
    const [row] = await tx.query<{ id: string; date_created: Date; expires_at: Date | null }>(
      `INSERT INTO identity.api_tokens (kind, organization_id, name, token_hash, token_last_characters, scopes, expires_at)
       VALUES ('integration', $1, $2, $3, $4, $5::text[], $6) RETURNING id, date_created, expires_at`,
      [token.organizationId, token.name, issued.hash, issued.lastCharacters, [...token.scopes], token.expiresAt?.toISOString() ?? null],
    );
    return {
      id: String(row.id),
      token: issued.plaintext,
      lastCharacters: issued.lastCharacters,
      dateCreated: row.date_created.toISOString(),
      expiresAt: row.expires_at?.toISOString() ?? null,
    };
  }

  async revoke(tx: Transaction, tokenIds: readonly string[]): Promise<void> {
    if (tokenIds.length === 0) return;
    await tx.execute(`DELETE FROM identity.api_tokens WHERE kind = 'integration' AND id = ANY($1::bigint[])`, [tokenIds]);
    tx.afterCommit(() => this.cache.clear());
  }

  async restrict(tx: Transaction, tokenIds: readonly string[], scopes: readonly string[]): Promise<void> {
    if (tokenIds.length === 0) return;
    const tokens = await tx.query<{ id: string; scopes: string[] }>(
      `SELECT id, scopes FROM identity.api_tokens WHERE kind = 'integration' AND id = ANY($1::bigint[]) FOR UPDATE`,
      [tokenIds],
    );
    const narrowed = tokens
      .map((token) => ({ id: String(token.id), before: [...token.scopes].sort(), after: commonScopes(token.scopes, scopes) }))
      .filter(({ before, after }) => before.join(' ') !== after.join(' '));
    if (narrowed.length === 0) return;
    await tx.execute(
      `UPDATE identity.api_tokens t SET scopes = ARRAY(SELECT jsonb_array_elements_text(n.scopes))
       FROM jsonb_to_recordset($1::jsonb) AS n(id bigint, scopes jsonb) WHERE t.id = n.id`,
      [JSON.stringify(narrowed.map(({ id, after }) => ({ id, scopes: after })))],
    );
    tx.afterCommit(() => this.cache.clear());
  }

  async list(sql: Sql, tokenIds: readonly string[]): Promise<IntegrationTokenSummary[]> {
    if (tokenIds.length === 0) return [];
    const rows = await sql.query<{ id: string; token_last_characters: string; scopes: string[]; date_created: Date; expires_at: Date | null }>(
      `SELECT id, token_last_characters, scopes, date_created, expires_at FROM identity.api_tokens
       WHERE kind = 'integration' AND id = ANY($1::bigint[]) ORDER BY date_created DESC, id DESC`,
      [tokenIds],
    );
    return rows.map((row) => ({
      id: String(row.id),
      lastCharacters: row.token_last_characters,
      scopes: row.scopes,
      dateCreated: row.date_created.toISOString(),
      expiresAt: row.expires_at?.toISOString() ?? null,
    }));
  }

  async find(sql: Sql, tokenId: string): Promise<{ id: string; organizationId: string; expiresAt: Date | null } | null> {
    if (!isNumericId(tokenId)) return null;
    const [row] = await sql.query<{ id: string; organization_id: string; expires_at: Date | null }>(
      `SELECT id, organization_id, expires_at FROM identity.api_tokens WHERE id = $1 AND kind = 'integration'`,
      [tokenId],
    );
    return row ? { id: String(row.id), organizationId: String(row.organization_id), expiresAt: row.expires_at } : null;
  }
}
