/** Deletes a metric alert rule with its incidents (their streams stay in the event store). */
export class DeleteMetricAlertRuleCommand {
  constructor(
    readonly organizationId: string,
    readonly ruleId: string,
    readonly actorId: string | null,
  ) {}
}
