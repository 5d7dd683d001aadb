export { AlertRuleEventTypes, IncidentEventTypes, IssueRuleIds, metricAlertData } from '../domain';
export type { IncidentStatus } from '../domain';
export { MetricAlertEvaluation } from './metric-alert-evaluation';
