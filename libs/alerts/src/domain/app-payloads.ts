import type { AppActionSetting } from './issue-rule';
import { describeValue, type IncidentStatus, type MetricAggregate, type MetricRuleDefinition } from './metric-rule';

/**
 * The `data` of the service-app webhooks alerts send, shaped as Sentry sends them. The envelope
 * (`action`, `installation.uuid`, `actor`) is the integration platform's.
 */

export interface AlertEventSource {
  readonly organizationSlug: string;
  readonly projectId: string;
  readonly projectSlug: string;
  readonly issueId: string;
  readonly eventId: string;
  readonly title: string;
  readonly culprit: string;
  readonly message: string;
  readonly level: string;
  readonly platform: string;
  /** ISO 8601 */
  readonly datetime: string;
  readonly release: string | null;
  readonly environment: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

export interface EventAlertTriggeredData {
  event: {
    event_id: string;
    project: number;
    issue_id: string;
    title: string;
    culprit: string;
    message: string;
    level: string;
    platform: string;
    datetime: string;
    timestamp: number;
    release: string | null;
    environment: string;
    tags: Array<[string, string]>;
    url: string;
    web_url: string;
    issue_url: string;
  };
  triggered_rule: string;
  issue_alert: { id: number; title: string; sentry_app_id: string | null; settings: AppActionSetting[] };
}

/** `event_alert.triggered`: the event that made the rule fire and the rule with the action's settings. */
export function eventAlertTriggeredData(
  publicUrl: string,
  event: AlertEventSource,
  rule: { id: string; name: string },
  action: { settings: readonly AppActionSetting[]; sentryAppId?: string | null },
): EventAlertTriggeredData {
  const api = `${publicUrl}/api/0`;
  return {
    event: {
      event_id: event.eventId,
      project: Number(event.projectId),
      issue_id: event.issueId,
      title: event.title,
      culprit: event.culprit,
      message: event.message,
      level: event.level,
      platform: event.platform,
      datetime: event.datetime,
      timestamp: Date.parse(event.datetime) / 1000,
      release: event.release,
      environment: event.environment,
      tags: event.tags.map(([key, value]) => [key, value]),
      url: `${api}/projects/${event.organizationSlug}/${event.projectSlug}/events/${event.eventId}/`,
      web_url: `${publicUrl}/organizations/${event.organizationSlug}/issues/${event.issueId}/events/${event.eventId}/`,
      issue_url: `${api}/organizations/${event.organizationSlug}/issues/${event.issueId}/`,
    },
    triggered_rule: rule.name,
    issue_alert: {
      id: Number(rule.id),
      title: rule.name,
      sentry_app_id: action.sentryAppId ?? null,
      settings: action.settings.map((setting) => ({ name: setting.name, value: setting.value })),
    },
  };
}

/** Sentry's numeric incident statuses. */
export const INCIDENT_STATUS_CODES: Readonly<Record<IncidentStatus, number>> = Object.freeze({ open: 1, resolved: 2, warning: 10, critical: 20 });

export interface MetricAlertRuleView extends MetricRuleDefinition {
  readonly id: string;
  readonly organizationId: string;
  /** Project slugs. */
  readonly projects: string[];
  readonly dateCreated: string;
  readonly dateModified: string;
}

export interface MetricAlertIncidentView {
  readonly id: string;
  readonly identifier: number;
  readonly organizationId: string;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly dateStarted: string;
  readonly dateDetected: string;
  readonly dateClosed: string | null;
}

/** Sentry's serialisation of a metric alert rule (the API's and the webhook's `alert_rule` use it). */
export function serializeMetricRule(rule: MetricAlertRuleView) {
  return {
    id: rule.id,
    name: rule.name,
    organizationId: rule.organizationId,
    status: 0,
    query: rule.query,
    aggregate: rule.aggregate,
    timeWindow: rule.timeWindow,
    resolution: 1,
    thresholdPeriod: 1,
    thresholdType: rule.thresholdType,
    resolveThreshold: rule.resolveThreshold,
    dataset: 'events',
    eventTypes: ['error'],
    environment: rule.environment,
    projects: [...rule.projects],
    owner: rule.owner,
    triggers: rule.triggers.map((trigger) => ({
      id: trigger.id,
      alertRuleId: rule.id,
      label: trigger.label,
      thresholdType: rule.thresholdType,
      alertThreshold: trigger.alertThreshold,
      resolveThreshold: rule.resolveThreshold,
      dateCreated: rule.dateCreated,
      actions: trigger.actions.map((action) => ({
        id: action.id,
        alertRuleTriggerId: trigger.id,
        type: action.type,
        targetType: action.targetType,
        targetIdentifier: action.targetIdentifier,
        inputChannelId: null,
        integrationId: null,
        sentryAppId: null,
        sentryAppInstallationUuid: action.sentryAppInstallationUuid,
        settings: action.settings,
        dateCreated: rule.dateCreated,
        desc: `Send a notification via the service app installation ${action.sentryAppInstallationUuid}`,
      })),
    })),
    dateCreated: rule.dateCreated,
    dateModified: rule.dateModified,
  };
}

/** The `metric_alert.*` action for a status (`metric_alert.open`, `.warning`, `.critical`, `.resolved`). */
export const metricAlertAction = (status: IncidentStatus): string => status;

const TITLE_PREFIX: Readonly<Record<IncidentStatus, string>> = Object.freeze({ open: 'Open', warning: 'Warning', critical: 'Critical', resolved: 'Resolved' });

/** `metric_alert.<status>` data: the incident with its rule, and the lines Sentry shows in notifications. */
export function metricAlertData(publicUrl: string, organizationSlug: string, rule: MetricAlertRuleView, incident: MetricAlertIncidentView, value: number) {
  return {
    metric_alert: {
      id: incident.id,
      identifier: String(incident.identifier),
      organization_id: rule.organizationId,
      projects: [...rule.projects],
      alert_rule: snakeCaseRule(rule),
      status: INCIDENT_STATUS_CODES[incident.status],
      status_method: 3,
      type: 2,
      title: incident.title,
      date_started: incident.dateStarted,
      date_detected: incident.dateDetected,
      date_added: incident.dateStarted,
      date_closed: incident.dateClosed,
    },
    description_text: describeValue(rule.aggregate as MetricAggregate, value, rule.timeWindow),
    description_title: `${TITLE_PREFIX[incident.status]}: ${rule.name}`,
    web_url: `${publicUrl}/organizations/${organizationSlug}/alerts/rules/details/${rule.id}/?alert=${incident.identifier}`,
  };
}

function snakeCaseRule(rule: MetricAlertRuleView) {
  const view = serializeMetricRule(rule);
  return {
    id: view.id,
    name: view.name,
    organization_id: view.organizationId,
    status: view.status,
    query: view.query,
    aggregate: view.aggregate,
    time_window: view.timeWindow,
    resolution: view.resolution,
    threshold_period: view.thresholdPeriod,
    threshold_type: view.thresholdType,
    resolve_threshold: view.resolveThreshold,
    dataset: view.dataset,
    environment: view.environment,
    include_all_projects: false,
    projects: view.projects,
    owner: view.owner,
    created_by: null,
    triggers: view.triggers.map((trigger) => ({
      id: trigger.id,
      alert_rule_id: trigger.alertRuleId,
      label: trigger.label,
      threshold_type: trigger.thresholdType,
      alert_threshold: trigger.alertThreshold,
      resolve_threshold: trigger.resolveThreshold,
      date_created: trigger.dateCreated,
      actions: trigger.actions.map((action) => ({
        id: action.id,
        alert_rule_trigger_id: action.alertRuleTriggerId,
        type: action.type,
        target_type: action.targetType,
        target_identifier: action.targetIdentifier,
        input_channel_id: null,
        integration_id: null,
        sentry_app_id: null,
        desc: action.desc,
        sentry_app_installation_uuid: action.sentryAppInstallationUuid,
        settings: action.settings,
        date_created: action.dateCreated,
      })),
    })),
    date_created: view.dateCreated,
    date_modified: view.dateModified,
  };
}
