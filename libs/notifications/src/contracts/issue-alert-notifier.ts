import type { Sql, Transaction } from '@faultline/platform';
import type { ChatService } from '../domain/issue-messages';

/** Whom Sentry's e-mail action (`sentry.mail.actions.NotifyEmailAction`) mails. */
export type AlertMailTarget =
  | { readonly targetType: 'IssueOwners'; readonly fallthroughType: 'ActiveMembers' | 'AllMembers' | 'NoOne' }
  | { readonly targetType: 'Team' | 'Member'; readonly targetIdentifier: string };

/** One action of an issue alert rule that fired for one event. */
export interface IssueAlertNotice {
  readonly organizationId: string;
  readonly projectId: string;
  readonly issueId: string;
  readonly ruleName: string;
  /** Identifies this action's fire, so it is sent once per recipient. */
  readonly cause: string;
  readonly channel:
    { readonly kind: 'email'; readonly target: AlertMailTarget } | { readonly kind: 'chat'; readonly service: ChatService; readonly webhookUrl: string };
}

/** The notifications context sends issue alerts by mail and to chat webhooks, in the caller's transaction. */
export abstract class IssueAlertNotifier {
  /** Answers, per notice (same order), the delivery causes queued for it. */
  abstract notify(tx: Transaction, notices: readonly IssueAlertNotice[]): Promise<string[][]>;
  /** Whether this server can send mail at all (SMTP_URL is set); without it mail only reaches the mail log, as failed. */
  abstract sendsMail(): boolean;
  /** Why a rule's mail target names nobody of the organization (an unknown member or team), or null when it is fine. */
  abstract targetProblem(sql: Sql, organizationId: string, target: AlertMailTarget): Promise<string | null>;
}
