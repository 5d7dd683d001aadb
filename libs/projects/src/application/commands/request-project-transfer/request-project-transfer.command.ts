export class RequestProjectTransferCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    /** An owner of the receiving organization. */
    readonly email: string,
    readonly requestedBy: string | undefined,
  ) {}
}
