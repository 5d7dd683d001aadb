import type { Scope } from '@faultline/kernel';

/**
 * A token for an internal app's own installation, minted by its organization: with the
 * installation's scopes, which the caller minting it must hold (`minterScopes`).
 */
export class MintInternalTokenCommand {
  constructor(
    readonly appSlug: string,
    readonly minterScopes: ReadonlySet<Scope>,
  ) {}
}

export interface MintedToken {
  readonly id: string;
  readonly token: string;
  readonly dateCreated: string;
  readonly expiresAt: null;
  readonly scopes: string[];
  readonly refreshToken: null;
}
