export class AcceptProjectTransferCommand {
  constructor(
    /** The link's secret, as the page received it. */
    readonly token: string,
    /** The signed-in user accepting it. */
    readonly userId: string,
    /** The slug of the organization that receives the project. */
    readonly organizationSlug: string,
  ) {}
}
