/** Creates a metric alert rule in an organization from Sentry's request body; answers the MetricRuleRow. */
export class CreateMetricAlertRuleCommand {
  constructor(
    readonly organizationId: string,
    readonly body: Record<string, unknown>,
    readonly actorId: string | null,
  ) {}
}
