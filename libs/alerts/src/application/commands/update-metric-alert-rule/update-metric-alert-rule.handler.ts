import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { InstallationLookup } from '@faultline/integrations';
import { Database } from '@faultline/platform';
import { alertRuleEvent, AlertRuleEventTypes, METRIC_ALERT_RULE_STREAM_TYPE, metricAlertRuleStream, serializeMetricRule } from '../../../domain';
import { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import { type MetricRuleRow, MetricRulesRepository, metricRuleView } from '../../../infrastructure/metric-rules.repository';
import { checkedMetricRule } from '../metric-rule-input';
import { UpdateMetricAlertRuleCommand } from './update-metric-alert-rule.command';

@CommandHandler(UpdateMetricAlertRuleCommand)
export class UpdateMetricAlertRuleHandler implements ICommandHandler<UpdateMetricAlertRuleCommand, MetricRuleRow> {
  constructor(
    private readonly database: Database,
    private readonly rules: MetricRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
    private readonly installations: InstallationLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, ruleId, body, actorId }: UpdateMetricAlertRuleCommand): Promise<MetricRuleRow> {
    const { row, before } = await this.database.transaction(async (tx) => {
      const existing = await this.rules.find(tx, organizationId, ruleId, true);
      if (!existing) throw DomainError.notFound();
      const current = serializeMetricRule(metricRuleView(existing));
      const ownIds = new Set(existing.triggers.flatMap((trigger) => [trigger.id, ...trigger.actions.map((action) => action.id)]));
      const { definition, projectIds } = await checkedMetricRule(tx, this.rules, this.installations, organizationId, { ...current, ...body }, ownIds);
      const updated = (await this.rules.update(tx, organizationId, ruleId, projectIds, definition, this.clock.now())) as MetricRuleRow;
      await this.recorder.record(tx, metricAlertRuleStream(ruleId), METRIC_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.MetricAlertRuleUpdated, { ruleId, scopeId: organizationId, actorId, definition }),
      ]);
      return { row: updated, before: existing.project_ids.map(String) };
    });
    this.cache.forget([...before, ...row.project_ids.map(String)]);
    return row;
  }
}
