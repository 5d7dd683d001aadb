import type { Sql, Transaction } from '@faultline/platform';

export interface IssuedIntegrationToken {
  readonly id: string;
  /** Returned this once; identity keeps only its SHA-256. */
  readonly token: string;
  readonly lastCharacters: string;
  readonly dateCreated: string;
  readonly expiresAt: string | null;
}

export interface IntegrationTokenSummary {
  readonly id: string;
  readonly lastCharacters: string;
  readonly scopes: readonly string[];
  readonly dateCreated: string;
  readonly expiresAt: string | null;
}

/**
 * Identity keeps every bearer token, so one guard and one cache authenticate them all. The
 * integrations context issues installation tokens (`sntryi_`) through this: bound to one
 * organization, with the app's scopes and an optional expiry. Writes happen in the caller's
 * transaction; a revocation clears the auth cache once it commits, so the token answers 401 at once
 * in this process (others within the cache's few seconds).
 */
export abstract class IntegrationTokens {
  abstract issue(
    tx: Transaction,
    token: { organizationId: string; name: string; scopes: readonly string[]; expiresAt: Date | null },
  ): Promise<IssuedIntegrationToken>;
  abstract revoke(tx: Transaction, tokenIds: readonly string[]): Promise<void>;
  /** Narrows tokens to what they have in common with `scopes` (never widens one). */
  abstract restrict(tx: Transaction, tokenIds: readonly string[], scopes: readonly string[]): Promise<void>;
  /** Tokens by id, for listing (never their value). */
  abstract list(sql: Sql, tokenIds: readonly string[]): Promise<IntegrationTokenSummary[]>;
  /** The integration token presented by a caller, by its id (the Principal's tokenId); null if none. */
  abstract find(sql: Sql, tokenId: string): Promise<{ id: string; organizationId: string; expiresAt: Date | null } | null>;
}
