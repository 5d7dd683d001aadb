import { eventAlertTriggeredData } from './event-alert-payload';

const publicUrl = 'https://faultline.example.com';

describe('eventAlertTriggeredData', () => {
  it("is Sentry's event_alert.triggered data: the event with its issue and links, and the rule with the action's settings", () => {
    const data = eventAlertTriggeredData(
      publicUrl,
      {
        organizationSlug: 'acme',
        projectId: '12',
        projectSlug: 'web',
        issueId: '345',
        eventId: 'a'.repeat(32),
        title: 'TypeError: boom',
        culprit: 'app/checkout in pay',
        message: 'boom',
        level: 'error',
        platform: 'node',
        datetime: '2026-11-22T12:00:00.500Z',
        release: 'shop@1.2.3',
        environment: 'production',
        tags: [['region', 'eu']],
      },
      { id: '9', name: 'New issue' },
      { settings: [{ name: 'channel', value: '#ops' }] },
    );
    expect(data).toEqual({
      event: {
        event_id: 'a'.repeat(32),
        project: 12,
        issue_id: '345',
        title: 'TypeError: boom',
        culprit: 'app/checkout in pay',
        message: 'boom',
        level: 'error',
        platform: 'node',
        datetime: '2026-11-22T12:00:00.500Z',
        timestamp: Date.UTC(2026, 10, 22, 12, 0, 0, 500) / 1000,
        release: 'shop@1.2.3',
        environment: 'production',
        tags: [['region', 'eu']],
        url: `${publicUrl}/api/0/projects/acme/web/events/${'a'.repeat(32)}/`,
        web_url: `${publicUrl}/organizations/acme/issues/345/events/${'a'.repeat(32)}/`,
        issue_url: `${publicUrl}/api/0/organizations/acme/issues/345/`,
      },
      triggered_rule: 'New issue',
      issue_alert: { id: 9, title: 'New issue', sentry_app_id: null, settings: [{ name: 'channel', value: '#ops' }] },
    });
  });
});
