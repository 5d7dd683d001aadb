import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { alertRuleEvent, AlertRuleEventTypes, ISSUE_ALERT_RULE_STREAM_TYPE, issueAlertRuleStream } from '../../../domain';
import { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import { IssueRulesRepository } from '../../../infrastructure/issue-rules.repository';
import { DeleteIssueAlertRuleCommand } from './delete-issue-alert-rule.command';

@CommandHandler(DeleteIssueAlertRuleCommand)
export class DeleteIssueAlertRuleHandler implements ICommandHandler<DeleteIssueAlertRuleCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly rules: IssueRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
  ) {}

  async execute({ projectId, ruleId, actorId }: DeleteIssueAlertRuleCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      if (!(await this.rules.find(tx, projectId, ruleId)) || !(await this.rules.delete(tx, projectId, ruleId))) throw DomainError.notFound();
      await this.recorder.record(tx, issueAlertRuleStream(ruleId), ISSUE_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.IssueAlertRuleDeleted, { ruleId, scopeId: projectId, actorId }),
      ]);
    });
    this.cache.forget([projectId]);
  }
}
