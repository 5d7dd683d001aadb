/** Removes one of the installation's external issue links. */
export class UnlinkExternalIssueCommand {
  constructor(
    readonly installationUuid: string,
    readonly linkId: string,
  ) {}
}
