export { NotificationsModule } from './notifications.module';
export { IssueAlertNotifier, type AlertMailTarget, type IssueAlertNotice } from './contracts/issue-alert-notifier';
export { CHAT_SERVICES, type ChatService } from './domain/issue-messages';
