export { AlertRuleEventTypes, IncidentEventTypes, IssueRuleIds, eventAlertTriggeredData, metricAlertData } from '../domain';
export type { EventAlertTriggeredData, IncidentStatus } from '../domain';
