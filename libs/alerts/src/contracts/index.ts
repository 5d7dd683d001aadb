export { AlertRuleEventTypes, IncidentEventTypes, IssueRuleIds, metricAlertData } from '../domain';
export type { IncidentStatus } from '../domain';
export { eventAlertTriggeredData, type EventAlertTriggeredData } from '../application/event-alert-payload';
