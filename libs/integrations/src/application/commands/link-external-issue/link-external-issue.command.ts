/** Links an issue of the installation's organization to a ticket of the app; linking again updates the link. */
export class LinkExternalIssueCommand {
  constructor(
    readonly installationUuid: string,
    readonly link: { readonly issueId: string; readonly webUrl: string; readonly project: string; readonly identifier: string },
  ) {}
}
