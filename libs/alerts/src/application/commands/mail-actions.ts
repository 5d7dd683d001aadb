import { DomainError } from '@faultline/kernel';
import type { IssueAlertNotifier } from '@faultline/notifications';
import type { Sql } from '@faultline/platform';
import { type IssueRuleAction, IssueRuleIds } from '../../domain';

/** Checks that each e-mail action names a member or team of this organization; the 400 names the action. */
export async function checkMailActions(sql: Sql, notifier: IssueAlertNotifier, organizationId: string, actions: readonly IssueRuleAction[]): Promise<void> {
  for (const [index, action] of actions.entries()) {
    if (action.id !== IssueRuleIds.NotifyEmail || action.targetType === 'IssueOwners') continue;
    const problem = await notifier.targetProblem(sql, organizationId, { targetType: action.targetType, targetIdentifier: action.targetIdentifier ?? '' });
    if (problem) throw DomainError.invalid(`actions[${index}]: ${problem}`, { field: 'actions' });
  }
}
