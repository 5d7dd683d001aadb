export class RevokeApiTokenCommand {
  constructor(
    readonly tokenId: string,
    /** The owner the token must belong to: a user's own tokens or one organization's. */
    readonly owner: { userId?: string; organizationId?: string },
  ) {}
}
