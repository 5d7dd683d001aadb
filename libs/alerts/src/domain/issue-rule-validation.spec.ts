import { IssueRuleIds as Ids } from './issue-rule';
import { validateIssueRule } from './issue-rule-validation';

const uuid = () => '00000000-0000-4000-8000-000000000001';

describe('validateIssueRule', () => {
  const valid = { name: ' New issues ', actionMatch: 'all', conditions: [{ id: Ids.FirstSeenEvent }], actions: [{ id: Ids.NotifyEvent }] };

  it('normalises a Sentry rule body: defaults, trimmed name, a uuid per action, numeric strings accepted', () => {
    const checked = validateIssueRule(
      { ...valid, filters: [{ id: Ids.LevelFilter, match: 'gte', level: 40 }], conditions: [{ id: Ids.EventFrequency, value: '100', interval: '1h' }] },
      uuid,
    );
    expect(checked).toEqual({
      ok: {
        name: 'New issues',
        environment: null,
        actionMatch: 'all',
        filterMatch: 'all',
        frequency: 30,
        owner: null,
        conditions: [{ id: Ids.EventFrequency, value: 100, interval: '1h', comparisonType: 'count' }],
        filters: [{ id: Ids.LevelFilter, match: 'gte', level: '40' }],
        actions: [{ id: Ids.NotifyEvent, uuid: uuid() }],
      },
    });
  });

  it("keeps an app action's installation and settings", () => {
    const checked = validateIssueRule(
      {
        ...valid,
        actions: [
          { id: Ids.NotifyEventSentryApp, sentryAppInstallationUuid: 'A1B2C3D4-0000-4000-8000-000000000000', settings: [{ name: 'channel', value: '#ops' }] },
        ],
      },
      uuid,
    );
    expect('ok' in checked && checked.ok.actions).toEqual([
      {
        id: Ids.NotifyEventSentryApp,
        uuid: uuid(),
        sentryAppInstallationUuid: 'a1b2c3d4-0000-4000-8000-000000000000',
        settings: [{ name: 'channel', value: '#ops' }],
      },
    ]);
  });

  it("keeps the e-mail action's target as Sentry names it, and a chat action's webhook URL", () => {
    const checked = validateIssueRule(
      {
        ...valid,
        actions: [
          { id: Ids.NotifyEmail, targetType: 'Member', targetIdentifier: '42' },
          { id: Ids.NotifyEmail, targetType: 'IssueOwners', targetIdentifier: '', fallthroughType: 'NoOne' },
          { id: Ids.NotifyDiscordWebhook, webhookUrl: ' https://discord.com/api/webhooks/1/abc ' },
        ],
      },
      uuid,
    );
    expect('ok' in checked && checked.ok.actions).toEqual([
      { id: Ids.NotifyEmail, uuid: uuid(), targetType: 'Member', targetIdentifier: '42', fallthroughType: 'ActiveMembers' },
      { id: Ids.NotifyEmail, uuid: uuid(), targetType: 'IssueOwners', targetIdentifier: null, fallthroughType: 'NoOne' },
      { id: Ids.NotifyDiscordWebhook, uuid: uuid(), webhookUrl: 'https://discord.com/api/webhooks/1/abc' },
    ]);
  });

  it.each([
    [{ ...valid, actions: [{ id: Ids.NotifyEmail, targetType: 'Team' }] }, 'actions'],
    [{ ...valid, actions: [{ id: Ids.NotifyEmail, targetType: 'Everyone' }] }, 'actions'],
    [{ ...valid, actions: [{ id: Ids.NotifyEmail, targetType: 'IssueOwners', fallthroughType: 'Some' }] }, 'actions'],
    [{ ...valid, actions: [{ id: Ids.NotifySlackWebhook, webhookUrl: 'ftp://example.com/hook' }] }, 'actions'],
    [{ ...valid, actions: [{ id: Ids.NotifyMattermostWebhook }] }, 'actions'],
    [{ ...valid, name: '' }, 'name'],
    [{ ...valid, actionMatch: undefined }, 'actionMatch'],
    [{ ...valid, filterMatch: 'most' }, 'filterMatch'],
    [{ ...valid, frequency: 4 }, 'frequency'],
    [{ ...valid, frequency: 43_201 }, 'frequency'],
    [{ ...valid, actions: [] }, 'actions'],
    [{ ...valid, actions: [{ id: 'sentry.rules.actions.notify_email.NotifyEmailAction' }] }, 'actions'],
    [{ ...valid, conditions: [{ id: Ids.EventUniqueUserFrequency, value: -1, interval: '1h' }] }, 'conditions'],
    [{ ...valid, conditions: [{ id: Ids.EventFrequency, value: 1, interval: '1h', comparisonType: 'percent' }] }, 'conditions'],
    [{ ...valid, filters: [{ id: Ids.TaggedEventFilter, key: 'region', match: 'eq' }] }, 'filters'],
    [{ ...valid, filters: [{ id: Ids.TaggedEventFilter, key: 'region', match: 'like', value: 'x' }] }, 'filters'],
    [{ ...valid, filters: [{ id: Ids.AgeComparisonFilter, comparison_type: 'older', value: 1, time: 'year' }] }, 'filters'],
    [{ ...valid, owner: 'someone' }, 'owner'],
  ])('refuses %j, naming %s', (input, field) => {
    const checked = validateIssueRule(input as Record<string, unknown>, uuid);
    expect(checked).toEqual({ error: expect.stringContaining(field), field });
  });

  it('checks an event attribute filter: a known attribute, a match kind, a value unless the match is is/ns', () => {
    const withFilter = (filter: Record<string, unknown>) =>
      validateIssueRule(
        { name: 'r', actionMatch: 'all', actions: [{ id: Ids.NotifyEvent }], filters: [{ id: Ids.EventAttributeFilter, ...filter }] },
        () => 'u',
      );
    expect(withFilter({ attribute: 'message', match: 'co', value: 'timeout' })).toMatchObject({
      ok: { filters: [{ attribute: 'message', match: 'co', value: 'timeout' }] },
    });
    expect(withFilter({ attribute: 'platform', match: 'is', value: 'ignored' })).toMatchObject({ ok: { filters: [{ attribute: 'platform', match: 'is' }] } });
    expect(withFilter({ attribute: 'stacktrace.code', match: 'eq', value: 'x' })).toMatchObject({
      field: 'filters',
      error: expect.stringContaining('attribute must be one of'),
    });
    expect(withFilter({ attribute: 'message', match: 'eq' })).toMatchObject({ field: 'filters', error: 'filters[0]: value is required' });
  });

  it('normalises the conditions and filters Sentry added', () => {
    const checked = validateIssueRule(
      {
        ...valid,
        conditions: [{ id: Ids.ReappearedEvent }, { id: Ids.EventFrequencyPercent, value: '2.5', interval: '10m' }],
        filters: [
          { id: Ids.IssueOccurrencesFilter, value: '10' },
          { id: Ids.AssignedToFilter, targetType: 'Team', targetIdentifier: '7' },
          { id: Ids.AssignedToFilter, targetType: 'Unassigned', targetIdentifier: '' },
          { id: Ids.LatestReleaseFilter },
        ],
      },
      uuid,
    );
    expect('ok' in checked && checked.ok.conditions).toEqual([
      { id: Ids.ReappearedEvent },
      { id: Ids.EventFrequencyPercent, value: 2.5, interval: '10m', comparisonType: 'count' },
    ]);
    expect('ok' in checked && checked.ok.filters).toEqual([
      { id: Ids.IssueOccurrencesFilter, value: 10 },
      { id: Ids.AssignedToFilter, targetType: 'Team', targetIdentifier: '7' },
      { id: Ids.AssignedToFilter, targetType: 'Unassigned', targetIdentifier: null },
      { id: Ids.LatestReleaseFilter },
    ]);
  });

  it.each([
    [{ id: Ids.EventFrequencyPercent, value: 101, interval: '1h' }, 'value must be a percentage from 0 to 100'],
    [{ id: Ids.EventFrequencyPercent, value: 5, interval: '1d' }, 'interval must be one of 1m, 5m, 10m, 30m, 1h'],
  ])('refuses the percent condition %j', (condition, message) => {
    expect(validateIssueRule({ ...valid, conditions: [condition] }, uuid)).toEqual({ error: `conditions[0]: ${message}`, field: 'conditions' });
  });

  it.each([
    [{ id: Ids.IssueOccurrencesFilter, value: -1 }, 'value must be a whole number of at least 0'],
    [{ id: Ids.IssueOccurrencesFilter, value: 1.5 }, 'value must be a whole number of at least 0'],
    [{ id: Ids.AssignedToFilter, targetType: 'NoOne' }, 'targetType must be one of Unassigned, Team, Member'],
    [{ id: Ids.AssignedToFilter, targetType: 'Member' }, "targetIdentifier must be the id of the member's user"],
    [{ id: Ids.AssignedToFilter, targetType: 'Team', targetIdentifier: 'ops' }, 'targetIdentifier must be the id of the team'],
  ])('refuses the filter %j', (filter, message) => {
    expect(validateIssueRule({ ...valid, filters: [filter] }, uuid)).toEqual({ error: `filters[0]: ${message}`, field: 'filters' });
  });
});
