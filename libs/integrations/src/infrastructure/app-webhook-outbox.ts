import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@faultline/kernel';
import { newUuid } from '@faultline/kernel';
import { type ErrorEventProcessedData, IngestEventTypes } from '@faultline/ingest';
import {
  ignoredSubstatus, ignoreStatusDetails, ISSUE_WEBHOOK_ACTIONS, type IssueEvent, type IssueEventBase, type IssueEventType, isIssueEvent, resolvedStatusDetails, unresolvedSubstatus,
} from '@faultline/issues';
import { APP_CONFIG, type AppConfig, type Sql, type Transaction } from '@faultline/platform';
import { type QueuedDelivery, SENTRY_APP_TARGET, WebhookTargets } from '@faultline/webhooks';
import { type AppWebhookResource, appWebhookBody, type WebhookActor, webhookActorOf } from '../domain';
import { InstallationsRepository } from './installations.repository';

/** One app webhook to queue, in the transaction of what causes it. */
export interface AppWebhookNotice {
  /** The organization the installation must belong to; another organization's installation is not notified. */
  readonly organizationId: string;
  readonly installationUuid: string;
  readonly resource: AppWebhookResource;
  /** `triggered`, `critical`, ...: the header says the resource, the body `action`. */
  readonly action: string;
  /** Identifies the occurrence (an event-store event id, an alert fire): queued once per installation and action. */
  readonly cause: string;
  readonly data: unknown;
  /** Omitted: Sentry itself. */
  readonly actor?: WebhookActor;
}

interface IssuePayloadRow {
  id: string;
  short_id: string;
  title: string;
  culprit: string;
  level: string;
  status: string;
  substatus: string | null;
  platform: string;
  first_seen: Date;
  last_seen: Date;
  times_seen: string;
  user_count: number;
  assignee: unknown;
  project_id: string;
  project_name: string;
  project_slug: string;
  project_platform: string | null;
  organization_slug: string;
}

/**
 * Queues service-app webhooks through the delivery engine inside the transaction of their cause,
 * signed with each app's client secret. The delivery target is the app (its URL and secret); the
 * body names the installation.
 */
@Injectable()
export class AppWebhookOutbox {
  constructor(
    private readonly installations: InstallationsRepository,
    private readonly targets: WebhookTargets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Queues one webhook to one installation, if it is live in `organizationId` and its app
   * subscribes to the resource (installation webhooks always; alerts when the app is alertable).
   * Answers whether it was queued.
   */
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
        targetKind: SENTRY_APP_TARGET,
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
    const issueEvents = events.filter((event) => isIssueEvent(event) && ISSUE_WEBHOOK_ACTIONS[event.type as IssueEventType] !== null) as unknown as Array<RecordedEvent & IssueEvent>;
    const processed = events.filter((event) => event.type === IngestEventTypes.ErrorEventProcessed);
    if (issueEvents.length === 0 && processed.length === 0) return;
    const organizations = [
      ...issueEvents.map((event) => String((event.data as IssueEventBase).organizationId)),
      ...processed.map((event) => String((event.data as unknown as ErrorEventProcessedData).organizationId)),
    ];
    const subscriptions = await this.subscriptions(tx, [...new Set(organizations)]);
    if (subscriptions.size === 0) return;
    const issues = await this.issues(tx, [
      ...issueEvents.map((event) => String(event.data.issueId)),
      ...processed.map((event) => String((event.data as unknown as ErrorEventProcessedData).issueId)),
    ]);
    const rows: QueuedDelivery[] = [];
    const queue = (organizationId: string, resource: string, action: string, cause: string, data: unknown, actor: WebhookActor | undefined) => {
      for (const installation of subscriptions.get(`${organizationId}|${resource}`) ?? []) {
        rows.push({
          guid: newUuid(),
          targetKind: SENTRY_APP_TARGET,
          targetId: installation.appUuid,
          cause: `${cause}:${installation.uuid}`,
          eventType: `${resource}.${action}`,
          body: appWebhookBody(action, installation.uuid, data, actor),
        });
      }
    };
    for (const event of issueEvents) {
      const [resource, action] = (ISSUE_WEBHOOK_ACTIONS[event.type as IssueEventType] as string).split('.');
      const data = event.data as IssueEventBase & { commentId?: string; text?: string };
      const actor = webhookActorOf(data.actor);
      if (resource === 'comment') {
        const issue = issues.get(String(data.issueId));
        queue(String(data.organizationId), resource, action, event.eventId, {
          comment_id: String(data.commentId),
          issue_id: Number(data.issueId),
          project_slug: issue?.project_slug ?? null,
          timestamp: data.at,
          comment: data.text ?? null,
        }, actor);
      } else {
        // A new issue is announced with its first event below, once its counters include that event.
        if (action === 'created') continue;
        const issue = issues.get(String(data.issueId));
        // The handler updates the read model after recording: the event says what changed.
        if (issue) queue(String(data.organizationId), resource, action, event.eventId, { issue: { ...this.issuePayload(issue), ...changedBy(event) } }, actor);
      }
    }
    for (const event of processed) {
      const data = event.data as unknown as ErrorEventProcessedData;
      const issue = issues.get(String(data.issueId));
      if (data.isNewIssue && issue) queue(String(data.organizationId), 'issue', 'created', event.eventId, { issue: this.issuePayload(issue) }, undefined);
      queue(String(data.organizationId), 'error', 'created', event.eventId, { error: this.errorPayload(data, issue) }, undefined);
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

  private async issues(sql: Sql, ids: string[]): Promise<Map<string, IssuePayloadRow>> {
    if (ids.length === 0) return new Map();
    const rows = await sql.query<IssuePayloadRow>(
      `SELECT i.id, i.short_id, i.title, i.culprit, i.level, i.status, i.substatus, i.platform, i.first_seen, i.last_seen, i.times_seen,
              i.user_count, i.assignee, p.id AS project_id, p.name AS project_name, p.slug AS project_slug, p.platform AS project_platform,
              o.slug AS organization_slug
       FROM issues.issues i JOIN projects.projects p ON p.id = i.project_id JOIN identity.organizations o ON o.id = p.organization_id
       WHERE i.id = ANY($1::bigint[])`,
      [[...new Set(ids)]],
    );
    return new Map(rows.map((row) => [String(row.id), row]));
  }

  /** The issue as Sentry's issue webhooks carry it: the spec's fields, and the usual links. */
  private issuePayload(row: IssuePayloadRow) {
    const base = this.config.publicUrl;
    const id = String(row.id);
    return {
      id,
      shortId: row.short_id,
      title: row.title,
      culprit: row.culprit,
      level: row.level,
      status: row.status,
      substatus: row.substatus,
      statusDetails: {},
      platform: row.platform,
      firstSeen: row.first_seen.toISOString(),
      lastSeen: row.last_seen.toISOString(),
      count: Number(row.times_seen),
      userCount: row.user_count,
      assignedTo: row.assignee ?? null,
      metadata: { title: row.title },
      project: { id: String(row.project_id), name: row.project_name, slug: row.project_slug, platform: row.project_platform },
      url: `${base}/api/0/organizations/${row.organization_slug}/issues/${id}/`,
      web_url: `${base}/organizations/${row.organization_slug}/issues/${id}/`,
      project_url: `${base}/organizations/${row.organization_slug}/projects/${row.project_slug}/`,
    };
  }

  private errorPayload(data: ErrorEventProcessedData, issue: IssuePayloadRow | undefined) {
    const base = this.config.publicUrl;
    const organization = issue?.organization_slug;
    return {
      event_id: data.eventId,
      project: Number(data.projectId),
      issue_id: String(data.issueId),
      title: data.title,
      message: data.message,
      culprit: data.culprit,
      level: data.level,
      platform: data.platform,
      datetime: data.datetime,
      release: data.release,
      environment: data.environment,
      tags: data.tags,
      ...(organization
        ? {
            url: `${base}/api/0/projects/${organization}/${data.projectSlug}/events/${data.eventId}/`,
            web_url: `${base}/organizations/${organization}/issues/${data.issueId}/events/${data.eventId}/`,
            issue_url: `${base}/api/0/organizations/${organization}/issues/${data.issueId}/`,
          }
        : {}),
    };
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
