import { describeValue, type IncidentStatus, type MetricAggregate, type MetricRuleDefinition } from './metric-rule';

/**
 * The `data` of the metric alert webhooks, shaped as Sentry sends them. The envelope
 * (`action`, `installation.uuid`, `actor`) is the integration platform's.
 */

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
