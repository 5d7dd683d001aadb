/** Replaces a metric alert rule's definition (missing fields keep their value); answers the MetricRuleRow. */
export class UpdateMetricAlertRuleCommand {
  constructor(
    readonly organizationId: string,
    readonly ruleId: string,
    readonly body: Record<string, unknown>,
    readonly actorId: string | null,
  ) {}
}
