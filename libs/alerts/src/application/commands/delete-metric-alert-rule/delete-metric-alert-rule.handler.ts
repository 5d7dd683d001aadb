import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { alertRuleEvent, AlertRuleEventTypes, METRIC_ALERT_RULE_STREAM_TYPE, metricAlertRuleStream } from '../../../domain';
import { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import { MetricRulesRepository } from '../../../infrastructure/metric-rules.repository';
import { DeleteMetricAlertRuleCommand } from './delete-metric-alert-rule.command';

@CommandHandler(DeleteMetricAlertRuleCommand)
export class DeleteMetricAlertRuleHandler implements ICommandHandler<DeleteMetricAlertRuleCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly rules: MetricRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
  ) {}

  async execute({ organizationId, ruleId, actorId }: DeleteMetricAlertRuleCommand): Promise<void> {
    const projectIds = await this.database.transaction(async (tx) => {
      if (!(await this.rules.find(tx, organizationId, ruleId, true))) throw DomainError.notFound();
      const deleted = (await this.rules.delete(tx, organizationId, ruleId)) as string[];
      await this.recorder.record(tx, metricAlertRuleStream(ruleId), METRIC_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.MetricAlertRuleDeleted, { ruleId, scopeId: organizationId, actorId }),
      ]);
      return deleted;
    });
    this.cache.forget(projectIds);
  }
}
