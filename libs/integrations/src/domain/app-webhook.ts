import type { Actor } from '@faultline/identity';
import type { IssueEventType } from '@faultline/issues';

/** Who caused an app webhook (identity's actor shape); with no acting user, Sentry says it did. */
export type WebhookActor = Actor;

export const SENTRY_ACTOR: WebhookActor = Object.freeze({ type: 'application', id: 'sentry', name: 'Sentry' });

/**
 * The body of a service-app webhook, serialised once as compact JSON exactly as JSON.stringify
 * writes it: receivers that verify the signature over JSON.stringify(JSON.parse(body)) compute the
 * same bytes.
 */
export function appWebhookBody(action: string, installationUuid: string, data: unknown, actor: WebhookActor | null | undefined): string {
  return JSON.stringify({ action, installation: { uuid: installationUuid }, data, actor: actor ?? SENTRY_ACTOR });
}

/** An issue event's actor as apps see it: users as users, anything automatic as Sentry. */
export function webhookActorOf(actor: { type: string; id: string; name: string } | undefined): WebhookActor {
  if (actor && actor.type === 'user') return { type: 'user', id: actor.id, name: actor.name };
  return SENTRY_ACTOR;
}

/** The delivery target kind of service apps: deliveries to an app's webhook URL, by app uuid. */
export const APP_WEBHOOK_TARGET = 'sentry_app';

/**
 * The app webhook (`resource.action`) each issue event sends (spec: the issue and comment
 * resources); `null` where Sentry sends none (unassignment, merges).
 */
export const APP_WEBHOOK_BY_ISSUE_EVENT: Readonly<Record<IssueEventType, string | null>> = Object.freeze({
  'issues.IssueCreated': 'issue.created',
  'issues.IssueResolved': 'issue.resolved',
  'issues.IssueUnresolved': 'issue.unresolved',
  'issues.IssueIgnored': 'issue.ignored',
  'issues.IssueAssigned': 'issue.assigned',
  'issues.IssueUnassigned': null,
  'issues.CommentAdded': 'comment.created',
  'issues.CommentEdited': 'comment.updated',
  'issues.CommentDeleted': 'comment.deleted',
  'issues.IssuesMerged': null,
  'issues.IssueMergedInto': null,
  'issues.IssueUnmerged': null,
  'issues.IssueUnmergedFrom': null,
});
