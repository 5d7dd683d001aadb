import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IssueWebhookPayloads } from '@faultline/issues';
import { IssueAlertNotifier } from '@faultline/notifications';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { IssueRuleIds, validateIssueRule } from '../../../domain';
import { AlertDispatcher } from '../../../infrastructure/alert-dispatcher';
import { checkMailActions } from '../mail-actions';
import { SendTestNotificationCommand } from './send-test-notification.command';

/** Answers how many messages were queued. */
@CommandHandler(SendTestNotificationCommand)
export class SendTestNotificationHandler implements ICommandHandler<SendTestNotificationCommand, number> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueWebhookPayloads,
    private readonly dispatcher: AlertDispatcher,
    private readonly notifier: IssueAlertNotifier,
  ) {}

  async execute({ organizationId, projectId, actions }: SendTestNotificationCommand): Promise<number> {
    const checked = validateIssueRule({ name: 'Test notification', actionMatch: 'all', actions }, randomUUID);
    if ('error' in checked) throw DomainError.invalid(checked.error, { field: checked.field });
    // Queued mail would only fail in the background: say so now rather than answer "sent".
    const mailIndex = checked.ok.actions.findIndex((action) => action.id === IssueRuleIds.NotifyEmail);
    if (mailIndex >= 0 && !this.notifier.sendsMail()) {
      throw DomainError.invalid(`actions[${mailIndex}]: this server sends no mail (SMTP_URL is not set), so the e-mail cannot be tested; nothing was sent`, {
        field: 'actions',
      });
    }
    return this.database.transaction(async (tx) => {
      await checkMailActions(tx, this.notifier, organizationId, checked.ok.actions);
      const issueId = await this.issues.latestOfProject(tx, projectId);
      if (!issueId) throw DomainError.invalid('actions: the project has no issue to show yet: send it an event first');
      return this.dispatcher.sendTest(tx, { organizationId, projectId, issueId, actions: checked.ok.actions, testId: randomUUID() });
    });
  }
}
