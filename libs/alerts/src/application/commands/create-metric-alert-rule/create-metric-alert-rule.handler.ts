import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { InstallationLookup } from '@faultline/integrations';
import { Database } from '@faultline/platform';
import { alertRuleEvent, AlertRuleEventTypes, METRIC_ALERT_RULE_STREAM_TYPE, metricAlertRuleStream } from '../../../domain';
import { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import { type MetricRuleRow, MetricRulesRepository } from '../../../infrastructure/metric-rules.repository';
import { checkedMetricRule } from '../metric-rule-input';
import { CreateMetricAlertRuleCommand } from './create-metric-alert-rule.command';

@CommandHandler(CreateMetricAlertRuleCommand)
export class CreateMetricAlertRuleHandler implements ICommandHandler<CreateMetricAlertRuleCommand, MetricRuleRow> {
  constructor(
    private readonly database: Database,
    private readonly rules: MetricRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
    private readonly installations: InstallationLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, body, actorId }: CreateMetricAlertRuleCommand): Promise<MetricRuleRow> {
    const row = await this.database.transaction(async (tx) => {
      const { definition, projectIds } = await checkedMetricRule(tx, this.rules, this.installations, organizationId, body);
      const created = await this.rules.insert(tx, organizationId, projectIds, definition, actorId, this.clock.now());
      await this.recorder.record(tx, metricAlertRuleStream(String(created.id)), METRIC_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.MetricAlertRuleCreated, { ruleId: String(created.id), scopeId: organizationId, actorId, definition }),
      ]);
      return created;
    });
    // Its projects start keeping the counts it reads.
    this.cache.forget(row.project_ids.map(String));
    return row;
  }
}
