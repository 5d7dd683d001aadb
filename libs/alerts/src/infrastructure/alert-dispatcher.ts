import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ErrorEventProcessedData } from '@faultline/ingest';
import { APP_CONFIG, type AppConfig, type Transaction } from '@faultline/platform';
import { AppWebhookOutbox } from '@faultline/integrations';
import { type IssueAlertNotice, IssueAlertNotifier } from '@faultline/notifications';
import { type HookNotice, ServiceHookOutbox } from '@faultline/webhooks';
import { type AlertEventSource, eventAlertTriggeredData } from '../application/event-alert-payload';
import {
  CHAT_ACTION_SERVICES,
  type IncidentStatus,
  type IssueRule,
  type IssueRuleAction,
  IssueRuleIds,
  metricAlertData,
  type MetricAlertIncidentView,
  type MetricAlertRuleView,
} from '../domain';

/** One webhook to a service app installation, as the integration platform's outbox takes it. */
export interface ServiceAppAlertDelivery {
  readonly organizationId: string;
  readonly installationUuid: string;
  readonly resource: 'event_alert' | 'metric_alert';
  /** `triggered`, or the incident's status for metric alerts. */
  readonly action: string;
  /** Identifies the occurrence, so it is queued once per installation. */
  readonly cause: string;
  readonly data: Record<string, unknown>;
}

/** One issue alert rule that fired for one processed event. */
export interface IssueRuleFire {
  readonly rule: IssueRule;
  readonly event: ErrorEventProcessedData;
}

/** One move of a metric alert rule's incident. */
export interface IncidentMove {
  readonly organizationId: string;
  readonly organizationSlug: string;
  readonly rule: MetricAlertRuleView;
  readonly incident: MetricAlertIncidentView;
  readonly status: IncidentStatus;
  readonly value: number;
  /** The incident's event-store event of this move. */
  readonly eventId: string;
}

export const eventAlertCause = (projectId: string, eventId: string): string => `event-alert:${projectId}:${eventId}`;

/**
 * Every alert that fires goes out through here, inside the transaction that decided it: service
 * hooks (`event.alert`) through the webhooks outbox, service apps (`event_alert.triggered`,
 * `metric_alert.*`) through `deliverToServiceApp`. Answers the delivery causes it queued, which
 * the alert history shows with their deliveries.
 */
@Injectable()
export class AlertDispatcher {
  private readonly logger = new Logger('AlertDispatcher');

  constructor(
    private readonly serviceHooks: ServiceHookOutbox,
    private readonly appWebhooks: AppWebhookOutbox,
    private readonly notifier: IssueAlertNotifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Answers, per fire (same order), the delivery causes queued for it. */
  async dispatchIssueFires(tx: Transaction, fires: readonly IssueRuleFire[]): Promise<string[][]> {
    const causes = fires.map((): string[] => []);
    if (fires.length === 0) return causes;

    // One event.alert per hook and event, naming every rule that fired for it (as Sentry does).
    const byEvent = new Map<string, { notice: HookNotice; fireIndexes: number[] }>();
    fires.forEach((fire, index) => {
      if (!fire.rule.actions.some((action) => action.id === IssueRuleIds.NotifyEvent)) return;
      const key = eventAlertCause(fire.event.projectId, fire.event.eventId);
      const entry = byEvent.get(key);
      if (entry) {
        (entry.notice.triggeringRules as string[]).push(fire.rule.name);
        entry.fireIndexes.push(index);
        return;
      }
      const { event } = fire;
      byEvent.set(key, {
        notice: {
          cause: key,
          projectId: event.projectId,
          source: {
            issueId: event.issueId,
            culprit: event.culprit,
            message: event.message,
            eventId: event.eventId,
            level: event.level,
            platform: event.platform,
            tags: event.tags,
            datetime: event.datetime,
          },
          triggeringRules: [fire.rule.name],
        },
        fireIndexes: [index],
      });
    });
    // One call per project: its hooks either take all of its notices or none.
    const byProject = new Map<string, Array<{ notice: HookNotice; fireIndexes: number[] }>>();
    for (const entry of byEvent.values()) byProject.set(entry.notice.projectId, [...(byProject.get(entry.notice.projectId) ?? []), entry]);
    for (const entries of byProject.values()) {
      if (
        (await this.serviceHooks.enqueue(
          tx,
          'event.alert',
          entries.map((entry) => entry.notice),
        )) === 0
      )
        continue;
      for (const { notice, fireIndexes } of entries) for (const index of fireIndexes) causes[index].push(notice.cause);
    }

    const appFires = fires
      .map((fire, index) => ({ fire, index }))
      .filter(({ fire }) => fire.rule.actions.some((a) => a.id === IssueRuleIds.NotifyEventSentryApp));
    if (appFires.length > 0) {
      const slugs = await this.organizationSlugs(
        tx,
        appFires.map(({ fire }) => fire.event.organizationId),
      );
      for (const { fire, index } of appFires) {
        const source: AlertEventSource = { ...fire.event, organizationSlug: slugs.get(fire.event.organizationId) ?? '' };
        for (const action of fire.rule.actions) {
          if (action.id !== IssueRuleIds.NotifyEventSentryApp) continue;
          const delivery: ServiceAppAlertDelivery = {
            organizationId: fire.event.organizationId,
            installationUuid: action.sentryAppInstallationUuid,
            resource: 'event_alert',
            action: 'triggered',
            cause: `issue-alert:${fire.rule.id}:${action.uuid}:${fire.event.projectId}:${fire.event.eventId}`,
            data: eventAlertTriggeredData(this.config.publicUrl, source, fire.rule, { settings: action.settings }) as unknown as Record<string, unknown>,
          };
          const cause = await this.deliverToServiceApp(tx, delivery);
          if (cause) causes[index].push(cause);
        }
      }
    }
    await this.notify(tx, fires, causes);
    return causes;
  }

  /** Mail and chat actions, through the notifications context: one notice per action and event. */
  private async notify(tx: Transaction, fires: readonly IssueRuleFire[], causes: string[][]): Promise<void> {
    const notices: IssueAlertNotice[] = [];
    const fireOf: number[] = [];
    fires.forEach((fire, index) => {
      const { event } = fire;
      for (const notice of noticesOf(fire.rule.actions, {
        organizationId: event.organizationId,
        projectId: event.projectId,
        issueId: event.issueId,
        ruleName: fire.rule.name,
        cause: (action) => `issue-alert:${fire.rule.id}:${action.uuid}:${event.projectId}:${event.eventId}`,
      })) {
        notices.push(notice);
        fireOf.push(index);
      }
    });
    const queued = await this.notifier.notify(tx, notices);
    queued.forEach((noticeCauses, noticeIndex) => causes[fireOf[noticeIndex]].push(...noticeCauses));
  }

  /** A rule's mail and chat actions, now, about one issue; answers how many messages were queued. */
  async sendTest(
    tx: Transaction,
    test: { organizationId: string; projectId: string; issueId: string; actions: readonly IssueRuleAction[]; testId: string },
  ): Promise<number> {
    const notices = noticesOf(test.actions, { ...test, ruleName: 'Test notification', cause: (action) => `test-notification:${test.testId}:${action.uuid}` });
    return (await this.notifier.notify(tx, notices)).filter((queued) => queued.length > 0).length;
  }

  /**
   * The apps a move notifies: a trigger level's actions when the incident reaches it (and when it
   * opens at it), every trigger's actions when it resolves; one webhook per installation.
   */
  async dispatchIncidentMove(tx: Transaction, move: IncidentMove): Promise<string[]> {
    const triggers =
      move.status === 'resolved'
        ? move.rule.triggers
        : move.rule.triggers.filter((t) => t.label === (move.status === 'open' ? move.incident.status : move.status));
    const installations = new Set(triggers.flatMap((trigger) => trigger.actions.map((action) => action.sentryAppInstallationUuid)));
    const causes: string[] = [];
    for (const installationUuid of installations) {
      const incident = { ...move.incident, status: move.status, dateClosed: move.status === 'resolved' ? move.incident.dateClosed : null };
      const delivery: ServiceAppAlertDelivery = {
        organizationId: move.organizationId,
        installationUuid,
        resource: 'metric_alert',
        action: move.status,
        cause: `metric-alert:${move.eventId}`,
        data: metricAlertData(this.config.publicUrl, move.organizationSlug, move.rule, incident, move.value) as unknown as Record<string, unknown>,
      };
      const cause = await this.deliverToServiceApp(tx, delivery);
      if (cause) causes.push(cause);
    }
    return causes;
  }

  /**
   * Queues one webhook to a service app installation in the caller's transaction, through the
   * integration platform's outbox (which checks that the installation is live in the organization
   * and its app takes alerts). Answers the cause its delivery is recorded under, or null when
   * nothing was queued.
   */
  async deliverToServiceApp(tx: Transaction, delivery: ServiceAppAlertDelivery): Promise<string | null> {
    const queued = await this.appWebhooks.enqueue(tx, {
      organizationId: delivery.organizationId,
      installationUuid: delivery.installationUuid,
      resource: delivery.resource,
      action: delivery.action,
      cause: delivery.cause,
      data: delivery.data,
    });
    if (!queued)
      this.logger.debug(
        `no ${delivery.resource}.${delivery.action} webhook for installation ${delivery.installationUuid}: not live here, or its app takes no alerts`,
      );
    // The outbox keys an app's delivery by the cause and the installation.
    return queued ? `${delivery.cause}:${delivery.installationUuid}` : null;
  }

  private async organizationSlugs(tx: Transaction, organizationIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await tx.query<{ id: string; slug: string }>(`SELECT id, slug FROM identity.organization_directory WHERE id = ANY($1::bigint[])`, [
      [...new Set(organizationIds)],
    ]);
    return new Map(rows.map((row) => [String(row.id), row.slug]));
  }
}

/** The notices of a rule's mail and chat actions (its other actions are webhooks, sent above). */
function noticesOf(
  actions: readonly IssueRuleAction[],
  base: { organizationId: string; projectId: string; issueId: string; ruleName: string; cause: (action: IssueRuleAction) => string },
): IssueAlertNotice[] {
  const notices: IssueAlertNotice[] = [];
  for (const action of actions) {
    const common = {
      organizationId: base.organizationId,
      projectId: base.projectId,
      issueId: base.issueId,
      ruleName: base.ruleName,
      cause: base.cause(action),
    };
    if (action.id === IssueRuleIds.NotifyEmail) {
      const target =
        action.targetType === 'IssueOwners'
          ? { targetType: action.targetType, fallthroughType: action.fallthroughType }
          : { targetType: action.targetType, targetIdentifier: action.targetIdentifier ?? '' };
      notices.push({ ...common, channel: { kind: 'email', target } });
    } else if ('webhookUrl' in action) {
      notices.push({ ...common, channel: { kind: 'chat', service: CHAT_ACTION_SERVICES[action.id], webhookUrl: action.webhookUrl } });
    }
  }
  return notices;
}
