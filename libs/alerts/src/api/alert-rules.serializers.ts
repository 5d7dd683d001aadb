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

/** A legacy rule component's workflow type: the module of its class (`…conditions.first_seen_event.FirstSeenEventCondition` → `first_seen_event`). */
const componentType = (id: string): string => {
  const parts = id.split('.');
  return parts.length > 1 ? parts[parts.length - 2] : id;
};
const ACTION_TYPES: Readonly<Record<string, string>> = {
  NotifyEmailAction: 'email',
  NotifyEventAction: 'plugin',
  NotifyEventServiceAction: 'webhook',
  NotifyEventSentryAppAction: 'sentry_app',
  SlackNotifyServiceAction: 'slack',
};
/** Sentry's workflow logic types for a legacy rule's match kinds. */
const LOGIC_TYPES: Readonly<Record<string, string>> = { all: 'all', any: 'any-short', none: 'none' };

/**
 * An issue alert rule as Sentry's workflow engine shows it (`WorkflowSerializer`): its conditions
 * as the `triggers` group, its filters and actions as one action filter, attached to the issue
 * stream detector of its project (whose id is the project's).
 */
export function serializeWorkflow(row: IssueRuleRow, organizationId: string) {
  const id = String(row.id);
  const component = (item: IssueRuleCondition | IssueRuleFilter, index: number) => ({
    id: `${id}-${index}`,
    type: componentType(item.id),
    comparison: item,
    conditionResult: true,
  });
  return {
    id,
    name: row.name,
    organizationId: String(organizationId),
    createdBy: row.created_by ? String(row.created_by) : null,
    dateCreated: iso(row.created_at),
    dateUpdated: iso(row.updated_at),
    triggers: {
      id: `${id}-triggers`,
      organizationId: String(organizationId),
      logicType: LOGIC_TYPES[row.action_match],
      conditions: row.conditions.map(component),
      actions: [],
    },
    actionFilters: [
      {
        id: `${id}-filters`,
        organizationId: String(organizationId),
        logicType: LOGIC_TYPES[row.filter_match ?? 'all'],
        conditions: row.filters.map(component),
        actions: row.actions.map((action, index) => ({
          id: `${id}-action-${index}`,
          type: ACTION_TYPES[action.id.split('.').at(-1) ?? ''] ?? componentType(action.id),
          data: action,
          status: 'active',
        })),
      },
    ],
    environment: row.environment,
    config: { frequency: row.frequency_minutes },
    detectorIds: [String(row.project_id)],
    enabled: true,
    owner: row.owner,
    lastTriggered: null,
  };
}
