/** Revokes one token an internal app's organization minted. */
export class RevokeInternalTokenCommand {
  constructor(
    readonly appSlug: string,
    readonly tokenId: string,
  ) {}
}
