import { metricAlertData, type MetricAlertRuleView, serializeMetricRule } from './app-payloads';

const publicUrl = 'https://faultline.example.com';

describe('metricAlertData', () => {
  const rule: MetricAlertRuleView = {
    id: '7',
    organizationId: '5',
    name: 'Too many errors',
    aggregate: 'count()',
    query: '',
    timeWindow: 10,
    thresholdType: 0,
    resolveThreshold: null,
    projects: ['earth'],
    environment: null,
    owner: null,
    dateCreated: '2026-11-22T10:00:00.000Z',
    dateModified: '2026-11-22T10:00:00.000Z',
    triggers: [
      {
        id: '14',
        label: 'critical',
        alertThreshold: 1000,
        actions: [{ id: '21', type: 'sentry_app', targetType: 'sentry_app', targetIdentifier: 'b1', sentryAppInstallationUuid: 'b1', settings: null }],
      },
    ],
  };
  const incident = {
    id: '6',
    identifier: 3,
    organizationId: '5',
    title: 'Too many errors',
    status: 'critical' as const,
    dateStarted: '2026-11-22T12:00:00.000Z',
    dateDetected: '2026-11-22T12:00:00.000Z',
    dateClosed: null,
  };

  it("is Sentry's metric_alert data: the incident with its rule and triggers in snake case, and the notification lines", () => {
    const data = metricAlertData(publicUrl, 'test-org', rule, incident, 1200);
    expect(data).toEqual({
      metric_alert: {
        id: '6',
        identifier: '3',
        organization_id: '5',
        projects: ['earth'],
        status: 20,
        status_method: 3,
        type: 2,
        title: 'Too many errors',
        date_started: '2026-11-22T12:00:00.000Z',
        date_detected: '2026-11-22T12:00:00.000Z',
        date_added: '2026-11-22T12:00:00.000Z',
        date_closed: null,
        alert_rule: expect.objectContaining({
          id: '7',
          name: 'Too many errors',
          organization_id: '5',
          aggregate: 'count()',
          time_window: 10,
          threshold_type: 0,
          resolve_threshold: null,
          dataset: 'events',
          projects: ['earth'],
          triggers: [
            expect.objectContaining({
              id: '14',
              alert_rule_id: '7',
              label: 'critical',
              alert_threshold: 1000,
              actions: [
                expect.objectContaining({ id: '21', alert_rule_trigger_id: '14', type: 'sentry_app', target_type: 'sentry_app', target_identifier: 'b1' }),
              ],
            }),
          ],
        }),
      },
      description_text: '1200 events in the last 10 minutes',
      description_title: 'Critical: Too many errors',
      web_url: `${publicUrl}/organizations/test-org/alerts/rules/details/7/?alert=3`,
    });
    expect(metricAlertData(publicUrl, 'test-org', rule, { ...incident, status: 'resolved', dateClosed: '2026-11-22T12:30:00.000Z' }, 3)).toMatchObject({
      metric_alert: { status: 2, date_closed: '2026-11-22T12:30:00.000Z' },
      description_title: 'Resolved: Too many errors',
    });
  });

  it("serialises the rule for the API in Sentry's camel case", () => {
    expect(serializeMetricRule(rule)).toMatchObject({
      id: '7',
      name: 'Too many errors',
      aggregate: 'count()',
      timeWindow: 10,
      thresholdType: 0,
      dataset: 'events',
      status: 0,
      triggers: [
        { id: '14', alertRuleId: '7', label: 'critical', alertThreshold: 1000, actions: [{ id: '21', alertRuleTriggerId: '14', type: 'sentry_app' }] },
      ],
    });
  });
});
