export class UnlinkSsoIdentityCommand {
  constructor(
    readonly userId: string,
    readonly organizationId: string,
  ) {}
}
