/** Replaces an issue alert rule's definition (Sentry's PUT sends the whole rule); answers the IssueRuleRow. */
export class UpdateIssueAlertRuleCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly ruleId: string,
    readonly body: Record<string, unknown>,
    readonly actorId: string | null,
  ) {}
}
