import { randomBytes } from 'node:crypto';
import { DomainError, grantableScopes, sha256Hex, type Scope } from '@faultline/kernel';

export type TokenKind = 'user' | 'organization' | 'integration';

/** Prefixes make a leaked token recognisable to secret scanners, as Sentry's do. */
const PREFIX: Record<TokenKind, string> = { user: 'sntryu_', organization: 'sntrys_', integration: 'sntryi_' };

export interface IssuedToken {
  /** Shown once, when created; only its hash is stored. */
  readonly plaintext: string;
  readonly hash: string;
  readonly lastCharacters: string;
}

export function issueToken(kind: TokenKind): IssuedToken {
  const plaintext = `${PREFIX[kind]}${randomBytes(32).toString('hex')}`;
  return fromPlaintext(plaintext);
}

/** A token whose value the operator chose (BOOTSTRAP_TOKEN). */
export function fromPlaintext(plaintext: string): IssuedToken {
  return { plaintext, hash: hashToken(plaintext), lastCharacters: plaintext.slice(-4) };
}

export const hashToken = (plaintext: string): string => sha256Hex(plaintext);

/** The scopes a new token may have: at least one, and only what its creator may hand on. */
export function tokenScopes(requested: readonly string[], creatorScopes: ReadonlySet<Scope>): Scope[] {
  if (requested.length === 0) throw DomainError.invalid('scopes: at least one scope is required', { errors: { scopes: ['At least one scope is required'] } });
  return grantableScopes(requested, creatorScopes);
}
