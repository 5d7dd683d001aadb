import { eventHookPayload, microsecondIso } from './event-payload';

describe('service hook event payload', () => {
  const source = {
    issueId: '42',
    projectSlug: 'web',
    projectName: 'Web',
    culprit: 'app/checkout in pay',
    message: 'TypeError: x is undefined',
    eventId: 'ab'.repeat(16),
    level: 'error',
    platform: 'node',
    tags: [
      ['environment', 'production'],
      ['release', '1.0'],
    ] as Array<[string, string]>,
    datetime: '2026-11-22T12:00:00.123Z',
  };

  it('has exactly the spec fields, tags as pairs and the datetime with microseconds', () => {
    const payload = eventHookPayload('d'.repeat(32), source, 'https://faultline.example/organizations/acme/issues/42/', ['Notify on new issues']);
    expect(payload).toEqual({
      id: 'd'.repeat(32),
      project: 'web',
      project_name: 'Web',
      culprit: 'app/checkout in pay',
      url: 'https://faultline.example/organizations/acme/issues/42/',
      message: 'TypeError: x is undefined',
      triggering_rules: ['Notify on new issues'],
      event: {
        event_id: 'ab'.repeat(16),
        level: 'error',
        tags: [
          ['environment', 'production'],
          ['release', '1.0'],
        ],
        platform: 'node',
        datetime: '2026-11-22T12:00:00.123000Z',
      },
    });
  });

  it('writes timestamps in UTC with six fractional digits', () => {
    expect(microsecondIso('2026-11-22T12:00:00Z')).toBe('2026-11-22T12:00:00.000000Z');
    expect(microsecondIso('2026-11-22T12:00:00.1234567Z')).toBe('2026-11-22T12:00:00.123456Z');
    expect(microsecondIso('2026-11-22T13:00:00.5+01:00')).toBe('2026-11-22T12:00:00.500000Z');
  });
});
