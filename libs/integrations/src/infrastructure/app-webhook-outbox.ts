import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@faultline/kernel';
import { newUuid } from '@faultline/kernel';
import { type ErrorEventProcessedData, IngestEventTypes } from '@faultline/ingest';
import {
  ignoredSubstatus,
  ignoreStatusDetails,
  type IssueEvent,
  type IssueEventBase,
  type IssueEventType,
  isIssueEvent,
  IssueWebhookPayloads,
  resolvedStatusDetails,
  unresolvedSubstatus,
} from '@faultline/issues';
import { APP_CONFIG, type AppConfig, type Sql, type Transaction } from '@faultline/platform';
import { type QueuedDelivery, WebhookTargets } from '@faultline/webhooks';
import { type AppWebhookNotice, AppWebhookOutbox } from '../contracts/app-webhook-outbox';
import { APP_WEBHOOK_BY_ISSUE_EVENT, APP_WEBHOOK_TARGET, appWebhookBody, type WebhookActor, webhookActorOf } from '../domain';
import { errorPayload } from '../contracts/error-payload';
import { InstallationsRepository } from './installations.repository';

/**
 * The app-webhook outbox over the delivery engine (`WebhookTargets`): the delivery target is the
 * app (its URL and secret); the body names the installation. It also queues issue, comment and
 * error events for the installations subscribed to them.
 */
@Injectable()
export class AppWebhookOutboxService extends AppWebhookOutbox {
  constructor(
    private readonly installations: InstallationsRepository,
    private readonly targets: WebhookTargets,
    private readonly issuePayloads: IssueWebhookPayloads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async enqueue(tx: Transaction, notice: AppWebhookNotice): Promise<boolean> {
    const installation = await this.installations.find(tx, notice.installationUuid);
    if (!installation || installation.status === 'deleted' || String(installation.organization_id) !== String(notice.organizationId)) return false;
    const [app] = await tx.query<{ uuid: string; webhook_url: string | null; events: string[]; is_alertable: boolean }>(
      `SELECT uuid, webhook_url, events, is_alertable FROM integrations.sentry_apps WHERE id = $1`,
      [installation.app_id],
    );
    if (!app?.webhook_url) return false;
    const alert = notice.resource === 'event_alert' || notice.resource === 'metric_alert';
    if (notice.resource !== 'installation' && !(alert ? app.is_alertable : app.events.includes(notice.resource))) return false;
    const queued = await this.targets.enqueue(tx, [
      {
        guid: newUuid(),
        targetKind: APP_WEBHOOK_TARGET,
        targetId: app.uuid,
        cause: `${notice.cause}:${installation.uuid}`,
        eventType: `${notice.resource}.${notice.action}`,
        body: appWebhookBody(notice.action, installation.uuid, notice.data, notice.actor),
      },
    ]);
    return queued > 0;
  }

  /** The event-store hook: issue, comment and error events go to every installation in the organization subscribed to them. */
  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    const issueEvents = events.filter((event) => isIssueEvent(event) && APP_WEBHOOK_BY_ISSUE_EVENT[event.type as IssueEventType] !== null) as unknown as Array<
      RecordedEvent & IssueEvent
    >;
    const processed = events.filter((event) => event.type === IngestEventTypes.ErrorEventProcessed);
    if (issueEvents.length === 0 && processed.length === 0) return;
    const organizations = [
      ...issueEvents.map((event) => String((event.data as IssueEventBase).organizationId)),
      ...processed.map((event) => String((event.data as unknown as ErrorEventProcessedData).organizationId)),
    ];
    const subscriptions = await this.subscriptions(tx, [...new Set(organizations)]);
    if (subscriptions.size === 0) return;
    const issues = await this.issuePayloads.find(tx, [
      ...issueEvents.map((event) => String(event.data.issueId)),
      ...processed.map((event) => String((event.data as unknown as ErrorEventProcessedData).issueId)),
    ]);
    const rows: QueuedDelivery[] = [];
    const queue = (organizationId: string, resource: string, action: string, cause: string, data: unknown, actor: WebhookActor | undefined) => {
      for (const installation of subscriptions.get(`${organizationId}|${resource}`) ?? []) {
        rows.push({
          guid: newUuid(),
          targetKind: APP_WEBHOOK_TARGET,
          targetId: installation.appUuid,
          cause: `${cause}:${installation.uuid}`,
          eventType: `${resource}.${action}`,
          body: appWebhookBody(action, installation.uuid, data, actor),
        });
      }
    };
    for (const event of issueEvents) {
      const [resource, action] = (APP_WEBHOOK_BY_ISSUE_EVENT[event.type as IssueEventType] as string).split('.');
      const data = event.data as IssueEventBase & { commentId?: string; text?: string };
      const actor = webhookActorOf(data.actor);
      if (resource === 'comment') {
        const issue = issues.get(String(data.issueId));
        queue(
          String(data.organizationId),
          resource,
          action,
          event.eventId,
          {
            comment_id: String(data.commentId),
            issue_id: Number(data.issueId),
            project_slug: issue?.issue.project.slug ?? null,
            timestamp: data.at,
            comment: data.text ?? null,
          },
          actor,
        );
      } else {
        // A new issue is announced with its first event below, once its counters include that event.
        if (action === 'created') continue;
        const issue = issues.get(String(data.issueId));
        // The handler updates the read model after recording: the event says what changed.
        if (issue) queue(String(data.organizationId), resource, action, event.eventId, { issue: { ...issue.issue, ...changedBy(event) } }, actor);
      }
    }
    for (const event of processed) {
      const data = event.data as unknown as ErrorEventProcessedData;
      const issue = issues.get(String(data.issueId));
      if (data.isNewIssue && issue) queue(String(data.organizationId), 'issue', 'created', event.eventId, { issue: issue.issue }, undefined);
      const error = errorPayload(this.config.publicUrl, { ...data, organizationSlug: issue?.organizationSlug });
      queue(String(data.organizationId), 'error', 'created', event.eventId, { error }, undefined);
    }
    if (rows.length > 0) await this.targets.enqueue(tx, rows);
  };

  private async subscriptions(sql: Sql, organizationIds: string[]): Promise<Map<string, Array<{ uuid: string; appUuid: string }>>> {
    const byKey = new Map<string, Array<{ uuid: string; appUuid: string }>>();
    for (const installation of await this.installations.subscribed(sql, organizationIds)) {
      for (const resource of installation.app_events) {
        const key = `${installation.organization_id}|${resource}`;
        byKey.set(key, [...(byKey.get(key) ?? []), { uuid: installation.uuid, appUuid: installation.app_uuid }]);
      }
    }
    return byKey;
  }
}

/** What an issue event changes in the issue, as the webhook shows it. */
function changedBy(event: IssueEvent): Record<string, unknown> {
  switch (event.type) {
    case 'issues.IssueResolved':
      return { status: 'resolved', substatus: null, statusDetails: resolvedStatusDetails(event.data) };
    case 'issues.IssueIgnored':
      return { status: 'ignored', substatus: ignoredSubstatus(event.data), statusDetails: ignoreStatusDetails(event.data) };
    case 'issues.IssueUnresolved':
      return { status: 'unresolved', substatus: unresolvedSubstatus(event.data.reason), statusDetails: {} };
    case 'issues.IssueAssigned':
      return { assignedTo: event.data.assignee };
    default:
      return {};
  }
}
