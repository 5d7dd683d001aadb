/** A token for an internal app's own installation, minted by its organization. */
export class MintInternalTokenCommand {
  constructor(readonly appSlug: string) {}
}

export interface MintedToken {
  readonly id: string;
  readonly token: string;
  readonly dateCreated: string;
  readonly expiresAt: null;
  readonly scopes: string[];
  readonly refreshToken: null;
}
