/** Creates an issue alert rule on a project from Sentry's request body; answers the IssueRuleRow. */
export class CreateIssueAlertRuleCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly body: Record<string, unknown>,
    readonly actorId: string | null,
  ) {}
}
