import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { InstallationLookup } from '@faultline/integrations';
import { IssueAlertNotifier } from '@faultline/notifications';
import { alertRuleEvent, AlertRuleEventTypes, ISSUE_ALERT_RULE_STREAM_TYPE, issueAlertRuleStream, validateIssueRule } from '../../../domain';
import { appActionsOf, checkAppActions } from '../app-actions';
import { checkMailActions } from '../mail-actions';
import { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import { type IssueRuleRow, IssueRulesRepository } from '../../../infrastructure/issue-rules.repository';
import { CreateIssueAlertRuleCommand } from './create-issue-alert-rule.command';

@CommandHandler(CreateIssueAlertRuleCommand)
export class CreateIssueAlertRuleHandler implements ICommandHandler<CreateIssueAlertRuleCommand, IssueRuleRow> {
  constructor(
    private readonly database: Database,
    private readonly rules: IssueRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
    private readonly installations: InstallationLookup,
    private readonly notifier: IssueAlertNotifier,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, projectId, body, actorId }: CreateIssueAlertRuleCommand): Promise<IssueRuleRow> {
    const checked = validateIssueRule(body, randomUUID);
    if ('error' in checked) throw DomainError.invalid(checked.error, { field: checked.field });
    const row = await this.database.transaction(async (tx) => {
      await checkAppActions(tx, this.installations, organizationId, appActionsOf(checked.ok.actions), 'actions');
      await checkMailActions(tx, this.notifier, organizationId, checked.ok.actions);
      const created = await this.rules.insert(tx, projectId, checked.ok, actorId, this.clock.now());
      await this.recorder.record(tx, issueAlertRuleStream(String(created.id)), ISSUE_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.IssueAlertRuleCreated, { ruleId: String(created.id), scopeId: projectId, actorId, definition: checked.ok }),
      ]);
      return created;
    });
    this.cache.forget([projectId]);
    return row;
  }
}
