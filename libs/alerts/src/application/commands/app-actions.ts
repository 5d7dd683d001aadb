import { DomainError } from '@faultline/kernel';
import type { InstallationLookup } from '@faultline/integrations';
import type { Sql } from '@faultline/platform';
import { appSettingsProblem, type AppActionSetting, type IssueRuleAction, IssueRuleIds } from '../../domain';

/**
 * Checks, in the command's transaction, that each service-app action names a live installation
 * of this organization whose app takes alerts (`isAlertable`), with settings its
 * `alert-rule-action` schema accepts. `where` names the action in the 400.
 */
export async function checkAppActions(
  sql: Sql,
  installations: InstallationLookup,
  organizationId: string,
  actions: ReadonlyArray<{ where: string; installationUuid: string; settings: readonly AppActionSetting[] | null }>,
  field: string,
): Promise<void> {
  for (const action of actions) {
    const installed = await installations.find(sql, organizationId, action.installationUuid);
    if (!installed) throw DomainError.invalid(`${action.where}: no service app installation ${action.installationUuid} in this organization`, { field });
    if (!installed.app.isAlertable)
      throw DomainError.invalid(`${action.where}: the app ${installed.app.slug} does not take alerts (isAlertable is false)`, { field });
    const problem = appSettingsProblem(installed.app.alertRuleAction, action.settings ?? []);
    if (problem) throw DomainError.invalid(`${action.where}: ${problem}`, { field });
  }
}

/** The service-app actions of an issue alert rule, for checkAppActions. */
export function appActionsOf(actions: readonly IssueRuleAction[]) {
  return actions.flatMap((action, index) =>
    action.id === IssueRuleIds.NotifyEventSentryApp
      ? [{ where: `actions[${index}]`, installationUuid: action.sentryAppInstallationUuid, settings: action.settings }]
      : [],
  );
}
