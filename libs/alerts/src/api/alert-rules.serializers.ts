import { type IssueRuleAction, type IssueRuleCondition, type IssueRuleFilter } from '../domain';
import { labelOf } from './issue-rule-catalogue';
import type { IncidentRow, ActivityRow } from '../infrastructure/incidents.repository';
import type { DeliveryOfCause, FireRow } from '../infrastructure/issue-alert-fires.repository';
import type { IssueRuleRow } from '../infrastructure/issue-rules.repository';

const iso = (value: Date | string): string => new Date(value).toISOString();

const withName = <T extends IssueRuleCondition | IssueRuleFilter | IssueRuleAction>(item: T) => ({ ...item, name: labelOf(item) });

/** Sentry's issue alert rule shape. */
export function serializeIssueRule(row: IssueRuleRow, projectSlug: string) {
  return {
    id: String(row.id),
    conditions: row.conditions.map(withName),
    filters: row.filters.map(withName),
    actions: row.actions.map(withName),
    actionMatch: row.action_match,
    filterMatch: row.filter_match,
    frequency: row.frequency_minutes,
    name: row.name,
    dateCreated: iso(row.created_at),
    owner: row.owner,
    createdBy: row.created_by ? { id: Number(row.created_by) } : null,
    environment: row.environment,
    projects: [projectSlug],
    status: 'active',
    snooze: false,
  };
}

export function serializeDelivery(delivery: DeliveryOfCause) {
  return {
    id: delivery.guid,
    eventType: delivery.event_type,
    target: { kind: delivery.target_kind, id: delivery.target_id },
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.last_status_code,
    dateCreated: iso(delivery.created_at),
    dateFinished: delivery.finished_at ? iso(delivery.finished_at) : null,
  };
}

/** One fire of an issue alert rule: when, for which issue and event, and the deliveries it queued. */
export function serializeFire(fire: FireRow, deliveries: readonly DeliveryOfCause[]) {
  return {
    id: String(fire.id),
    ruleId: String(fire.rule_id),
    issueId: String(fire.issue_id),
    eventId: fire.event_id,
    dateFired: iso(fire.fired_at),
    deliveries: deliveries.filter((d) => fire.delivery_causes.includes(d.cause)).map(serializeDelivery),
  };
}

const STATUS_CODES: Record<string, number> = { open: 1, resolved: 2, warning: 10, critical: 20 };

/** Sentry's incident shape (`status`: 1 open, 2 closed, 10 warning, 20 critical), with the rule it belongs to. */
export function serializeIncident(row: IncidentRow, alertRule: unknown, projects: string[]) {
  return {
    id: String(row.id),
    identifier: String(row.identifier),
    organizationId: String(row.organization_id),
    projects,
    alertRule,
    status: STATUS_CODES[row.status],
    statusName: row.status,
    statusMethod: 3,
    type: 2,
    title: row.title,
    dateStarted: iso(row.date_started),
    dateDetected: iso(row.date_detected),
    dateCreated: iso(row.date_started),
    dateClosed: row.date_closed ? iso(row.date_closed) : null,
  };
}

/** One move of an incident (an event of its stream) with the webhooks it queued. */
export function serializeActivity(activity: ActivityRow, deliveries: readonly DeliveryOfCause[]) {
  return {
    id: String(activity.id),
    type: activity.previous_status === null ? 'detected' : activity.status === 'resolved' ? 'resolved' : 'status_change',
    eventId: activity.event_id,
    previousStatus: activity.previous_status,
    status: activity.status,
    value: Number(activity.value),
    dateCreated: iso(activity.at),
    deliveries: deliveries.filter((d) => activity.delivery_causes.includes(d.cause)).map(serializeDelivery),
  };
}
