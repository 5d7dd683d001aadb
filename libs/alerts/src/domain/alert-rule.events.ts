import { domainEvent } from '@faultline/kernel';

/** Changes of alert rules, recorded on `alert-rule-<id>` / `metric-alert-rule-<id>` with who made them. */
export const AlertRuleEventTypes = {
  IssueAlertRuleCreated: 'alerts.IssueAlertRuleCreated',
  IssueAlertRuleUpdated: 'alerts.IssueAlertRuleUpdated',
  IssueAlertRuleDeleted: 'alerts.IssueAlertRuleDeleted',
  MetricAlertRuleCreated: 'alerts.MetricAlertRuleCreated',
  MetricAlertRuleUpdated: 'alerts.MetricAlertRuleUpdated',
  MetricAlertRuleDeleted: 'alerts.MetricAlertRuleDeleted',
} as const;

export const ISSUE_ALERT_RULE_STREAM_TYPE = 'alert-rule';
export const issueAlertRuleStream = (ruleId: string): string => `alert-rule-${ruleId}`;
export const METRIC_ALERT_RULE_STREAM_TYPE = 'metric-alert-rule';
export const metricAlertRuleStream = (ruleId: string): string => `metric-alert-rule-${ruleId}`;

type RuleChange = { ruleId: string; scopeId: string; actorId: string | null; definition?: unknown };

export const alertRuleEvent = (type: (typeof AlertRuleEventTypes)[keyof typeof AlertRuleEventTypes], data: RuleChange) =>
  domainEvent(type, JSON.parse(JSON.stringify(data)) as RuleChange);
