/** Deletes an issue alert rule (with its fire history). */
export class DeleteIssueAlertRuleCommand {
  constructor(
    readonly projectId: string,
    readonly ruleId: string,
    readonly actorId: string | null,
  ) {}
}
