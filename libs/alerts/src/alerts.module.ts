import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { RetentionSchedule, WorkerHost } from '@faultline/platform';
import { IntegrationsModule } from '@faultline/integrations';
import { IssuesModule } from '@faultline/issues';
import { NotificationsModule } from '@faultline/notifications';
import { ReleasesModule } from '@faultline/releases';
import { WebhooksModule } from '@faultline/webhooks';
import { CombinedRulesController } from './api/combined-rules.controller';
import { WorkflowsController } from './api/workflows.controller';
import { IssueAlertRulesController, RuleActionsController } from './api/issue-alert-rules.controller';
import { SendTestNotificationHandler } from './application/commands/send-test-notification/send-test-notification.handler';
import { IncidentsController, MetricAlertRulesController } from './api/metric-alert-rules.controller';
import { CreateIssueAlertRuleHandler } from './application/commands/create-issue-alert-rule/create-issue-alert-rule.handler';
import { CreateMetricAlertRuleHandler } from './application/commands/create-metric-alert-rule/create-metric-alert-rule.handler';
import { DeleteIssueAlertRuleHandler } from './application/commands/delete-issue-alert-rule/delete-issue-alert-rule.handler';
import { DeleteMetricAlertRuleHandler } from './application/commands/delete-metric-alert-rule/delete-metric-alert-rule.handler';
import { UpdateIssueAlertRuleHandler } from './application/commands/update-issue-alert-rule/update-issue-alert-rule.handler';
import { UpdateMetricAlertRuleHandler } from './application/commands/update-metric-alert-rule/update-metric-alert-rule.handler';
import { AlertCountsRepository } from './infrastructure/alert-counts.repository';
import { AlertDispatcher } from './infrastructure/alert-dispatcher';
import { AlertMinutePartitionsRepository } from './infrastructure/alert-minute-partitions.repository';
import { AlertMinutePartitionsWorker } from './infrastructure/alert-minute-partitions.worker';
import { AlertRuleCache } from './infrastructure/alert-rule-cache';
import { CombinedRulesRepository } from './infrastructure/combined-rules.repository';
import { IncidentsRepository } from './infrastructure/incidents.repository';
import { IssueAlertEvaluator } from './infrastructure/issue-alert-evaluator';
import { IssueAlertFiresRepository } from './infrastructure/issue-alert-fires.repository';
import { IssueRulesRepository } from './infrastructure/issue-rules.repository';
import { MetricAlertEvaluation } from './contracts/metric-alert-evaluation';
import { MetricAlertWorker } from './infrastructure/metric-alert.worker';
import { MetricRulesRepository } from './infrastructure/metric-rules.repository';

/**
 * Issue alert rules (evaluated in the transaction that processes each event) and metric alert
 * rules (evaluated by a worker on a schedule), their history, and the one dispatcher every fire
 * goes out through.
 */
@Module({
  imports: [CqrsModule, EventStoreModule, WebhooksModule, IntegrationsModule, NotificationsModule, IssuesModule, ReleasesModule],
  controllers: [
    IssueAlertRulesController,
    RuleActionsController,
    MetricAlertRulesController,
    IncidentsController,
    CombinedRulesController,
    WorkflowsController,
  ],
  providers: [
    IssueRulesRepository,
    MetricRulesRepository,
    CombinedRulesRepository,
    IncidentsRepository,
    IssueAlertFiresRepository,
    AlertCountsRepository,
    AlertMinutePartitionsRepository,
    AlertMinutePartitionsWorker,
    AlertRuleCache,
    AlertDispatcher,
    IssueAlertEvaluator,
    MetricAlertWorker,
    { provide: MetricAlertEvaluation, useExisting: MetricAlertWorker },
    CreateIssueAlertRuleHandler,
    UpdateIssueAlertRuleHandler,
    DeleteIssueAlertRuleHandler,
    CreateMetricAlertRuleHandler,
    UpdateMetricAlertRuleHandler,
    DeleteMetricAlertRuleHandler,
    SendTestNotificationHandler,
  ],
})
export class AlertsModule implements OnModuleInit {
  constructor(
    private readonly workers: WorkerHost,
    private readonly worker: MetricAlertWorker,
    private readonly recorder: EventRecorder,
    private readonly evaluator: IssueAlertEvaluator,
    private readonly retention: RetentionSchedule,
    private readonly minutePartitions: AlertMinutePartitionsWorker,
    private readonly minuteRetention: AlertMinutePartitionsRepository,
  ) {}

  onModuleInit(): void {
    this.workers.register(this.worker);
    this.workers.register(this.minutePartitions);
    this.retention.register(this.minuteRetention);
    this.recorder.onAppended(this.evaluator.onAppended);
  }
}
