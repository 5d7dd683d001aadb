/**
 * Deletes issues of an organization (and of one project, when given) with their stored events and
 * users, all or none. Their event streams stay: streams are never deleted.
 */
export class DeleteIssueCommand {
  constructor(
    readonly organizationId: string,
    readonly issueIds: readonly string[],
    readonly projectId?: string,
  ) {}
}
