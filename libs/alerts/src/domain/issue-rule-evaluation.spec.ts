import { type IssueRuleDefinition, IssueRuleIds as Ids } from './issue-rule';
import { type EventFacts, needsOf, rulePasses } from './issue-rule-evaluation';

const uuid = () => '00000000-0000-4000-8000-000000000001';

function facts(overrides: Partial<EventFacts> = {}): EventFacts {
  return {
    isNewIssue: false,
    isRegression: false,
    level: 'error',
    environment: 'production',
    tags: [
      ['region', 'eu-west-1'],
      ['level', 'error'],
      ['browser', 'Chrome 120'],
    ],
    attributes: { message: 'Checkout failed: card declined', platform: 'node', environment: 'production', type: 'error' },
    eventsIn: () => 0,
    usersIn: () => 0,
    ...overrides,
  };
}

function rule(overrides: Partial<IssueRuleDefinition> = {}): IssueRuleDefinition {
  return {
    name: 'r',
    environment: null,
    actionMatch: 'all',
    filterMatch: 'all',
    frequency: 30,
    conditions: [],
    filters: [],
    actions: [{ id: Ids.NotifyEvent, uuid: uuid() }],
    owner: null,
    ...overrides,
  };
}

describe('rulePasses', () => {
  it('first seen and regression conditions follow the event', () => {
    const firstSeen = rule({ conditions: [{ id: Ids.FirstSeenEvent }] });
    expect(rulePasses(firstSeen, facts({ isNewIssue: true }))).toBe(true);
    expect(rulePasses(firstSeen, facts())).toBe(false);
    const regression = rule({ conditions: [{ id: Ids.RegressionEvent }] });
    expect(rulePasses(regression, facts({ isRegression: true }))).toBe(true);
    expect(rulePasses(regression, facts())).toBe(false);
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }] }), facts())).toBe(true);
  });

  it('frequency conditions pass when the count is more than the value', () => {
    const frequent = rule({ conditions: [{ id: Ids.EventFrequency, value: 2, interval: '1h', comparisonType: 'count' }] });
    expect(rulePasses(frequent, facts({ eventsIn: (interval) => (interval === '1h' ? 2 : 0) }))).toBe(false);
    expect(rulePasses(frequent, facts({ eventsIn: (interval) => (interval === '1h' ? 3 : 0) }))).toBe(true);
    const users = rule({ conditions: [{ id: Ids.EventUniqueUserFrequency, value: 1, interval: '5m', comparisonType: 'count' }] });
    expect(rulePasses(users, facts({ usersIn: () => 2 }))).toBe(true);
    expect(rulePasses(users, facts({ usersIn: () => 1 }))).toBe(false);
  });

  it('actionMatch all, any and none combine the conditions', () => {
    const conditions = [{ id: Ids.FirstSeenEvent }, { id: Ids.RegressionEvent }] as IssueRuleDefinition['conditions'];
    const oneOfTwo = facts({ isNewIssue: true });
    expect(rulePasses(rule({ conditions, actionMatch: 'all' }), oneOfTwo)).toBe(false);
    expect(rulePasses(rule({ conditions, actionMatch: 'any' }), oneOfTwo)).toBe(true);
    expect(rulePasses(rule({ conditions, actionMatch: 'none' }), oneOfTwo)).toBe(false);
    expect(rulePasses(rule({ conditions, actionMatch: 'none' }), facts())).toBe(true);
  });

  it("level filters compare Sentry's numeric levels", () => {
    const atLeastError = rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.LevelFilter, match: 'gte', level: '40' }] });
    expect(rulePasses(atLeastError, facts({ level: 'fatal' }))).toBe(true);
    expect(rulePasses(atLeastError, facts({ level: 'error' }))).toBe(true);
    expect(rulePasses(atLeastError, facts({ level: 'warning' }))).toBe(false);
    const exactlyInfo = rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.LevelFilter, match: 'eq', level: '20' }] });
    expect(rulePasses(exactlyInfo, facts({ level: 'info' }))).toBe(true);
    expect(rulePasses(exactlyInfo, facts({ level: 'debug' }))).toBe(false);
  });

  it.each([
    ['eq', 'EU-WEST-1', true],
    ['eq', 'us-east-1', false],
    ['ne', 'us-east-1', true],
    ['sw', 'eu-', true],
    ['ew', '-1', true],
    ['co', 'west', true],
    ['nc', 'west', false],
    ['is', undefined, true],
    ['ns', undefined, false],
  ])('tag filter region %s %s: %s', (match, value, expected) => {
    const filtered = rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.TaggedEventFilter, key: 'region', match, value } as never] });
    expect(rulePasses(filtered, facts())).toBe(expected);
  });

  it("event attribute filters compare the event's message, platform, environment and type", () => {
    const filtered = (filter: Record<string, unknown>) =>
      rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.EventAttributeFilter, ...filter } as never] });
    expect(rulePasses(filtered({ attribute: 'message', match: 'co', value: 'CARD DECLINED' }), facts())).toBe(true);
    expect(rulePasses(filtered({ attribute: 'message', match: 'sw', value: 'timeout' }), facts())).toBe(false);
    expect(rulePasses(filtered({ attribute: 'platform', match: 'eq', value: 'python' }), facts())).toBe(false);
    expect(rulePasses(filtered({ attribute: 'environment', match: 'ne', value: 'staging' }), facts())).toBe(true);
    expect(rulePasses(filtered({ attribute: 'message', match: 'ns' }), facts({ attributes: { message: '' } }))).toBe(true);
  });

  it("age filters compare the issue's age", () => {
    const older = rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.AgeComparisonFilter, comparison_type: 'older', value: 2, time: 'hour' }] });
    expect(rulePasses(older, facts({ issueAgeSeconds: 3 * 3600 }))).toBe(true);
    expect(rulePasses(older, facts({ issueAgeSeconds: 3600 }))).toBe(false);
    const newer = rule({ conditions: [{ id: Ids.EveryEvent }], filters: [{ id: Ids.AgeComparisonFilter, comparison_type: 'newer', value: 1, time: 'day' }] });
    expect(rulePasses(newer, facts({ issueAgeSeconds: 60 }))).toBe(true);
  });

  it('filterMatch any and none combine the filters; a rule of another environment never passes', () => {
    const filters = [
      { id: Ids.LevelFilter, match: 'eq', level: '50' },
      { id: Ids.TaggedEventFilter, key: 'region', match: 'eq', value: 'eu-west-1' },
    ] as IssueRuleDefinition['filters'];
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }], filters, filterMatch: 'all' }), facts())).toBe(false);
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }], filters, filterMatch: 'any' }), facts())).toBe(true);
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }], filters, filterMatch: 'none' }), facts())).toBe(false);
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }], environment: 'staging' }), facts())).toBe(false);
    expect(rulePasses(rule({ conditions: [{ id: Ids.EveryEvent }], environment: 'production' }), facts())).toBe(true);
  });
});

describe('needsOf', () => {
  it('asks for counts, users and ages only when a rule reads them', () => {
    expect(needsOf([rule({ conditions: [{ id: Ids.FirstSeenEvent }] })])).toEqual({
      eventCounts: false,
      userCounts: false,
      issueAge: false,
      eventWindows: [],
      userWindows: [],
    });
    expect(
      needsOf([
        rule({ conditions: [{ id: Ids.EventFrequency, value: 1, interval: '1h', comparisonType: 'count' }] }),
        rule({
          conditions: [{ id: Ids.EventUniqueUserFrequency, value: 1, interval: '1d', comparisonType: 'count' }],
          filters: [{ id: Ids.AgeComparisonFilter, comparison_type: 'older', value: 1, time: 'day' }],
        }),
      ]),
    ).toEqual({ eventCounts: true, userCounts: true, issueAge: true, eventWindows: [3600], userWindows: [86_400] });
  });
});
