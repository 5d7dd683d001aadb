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
import { UpdateIssueAlertRuleCommand } from './update-issue-alert-rule.command';

@CommandHandler(UpdateIssueAlertRuleCommand)
export class UpdateIssueAlertRuleHandler implements ICommandHandler<UpdateIssueAlertRuleCommand, IssueRuleRow> {
  constructor(
    private readonly database: Database,
    private readonly rules: IssueRulesRepository,
    private readonly recorder: EventRecorder,
    private readonly cache: AlertRuleCache,
    private readonly installations: InstallationLookup,
    private readonly notifier: IssueAlertNotifier,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, projectId, ruleId, body, actorId }: UpdateIssueAlertRuleCommand): Promise<IssueRuleRow> {
    const row = await this.database.transaction(async (tx) => {
      const existing = await this.rules.find(tx, projectId, ruleId, true);
      if (!existing) throw DomainError.notFound();
      // Actions keep their uuid when the client sends it back; missing fields keep their value, as Sentry's PUT allows.
      const checked = validateIssueRule({ ...definitionOf(existing), ...body }, randomUUID);
      if ('error' in checked) throw DomainError.invalid(checked.error, { field: checked.field });
      await checkAppActions(tx, this.installations, organizationId, appActionsOf(checked.ok.actions), 'actions');
      await checkMailActions(tx, this.notifier, organizationId, checked.ok.actions);
      const updated = (await this.rules.update(tx, projectId, ruleId, checked.ok, this.clock.now())) as IssueRuleRow;
      await this.recorder.record(tx, issueAlertRuleStream(ruleId), ISSUE_ALERT_RULE_STREAM_TYPE, [
        alertRuleEvent(AlertRuleEventTypes.IssueAlertRuleUpdated, { ruleId, scopeId: projectId, actorId, definition: checked.ok }),
      ]);
      return updated;
    });
    this.cache.forget([projectId]);
    return row;
  }
}

function definitionOf(row: IssueRuleRow): Record<string, unknown> {
  return {
    name: row.name,
    environment: row.environment,
    actionMatch: row.action_match,
    filterMatch: row.filter_match,
    frequency: row.frequency_minutes,
    conditions: row.conditions,
    filters: row.filters,
    actions: row.actions,
    owner: row.owner,
  };
}
