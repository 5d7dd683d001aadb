import { type IssueRuleDefinition, IssueRuleIds as Ids } from './issue-rule';
import { type EventFacts, needsOf, percentOfSessions, rulePasses } from './issue-rule-evaluation';

const uuid = () => '00000000-0000-4000-8000-000000000001';

function facts(overrides: Partial<EventFacts> = {}): EventFacts {
  return {
    isNewIssue: false,
    isRegression: false,
    isReappeared: false,
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
      issueState: false,
      sessions: false,
      latestRelease: false,
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
    ).toEqual({
      eventCounts: true,
      userCounts: true,
      issueAge: true,
      issueState: false,
      sessions: false,
      latestRelease: false,
      eventWindows: [3600],
      userWindows: [86_400],
    });
  });

  it('asks for sessions, the issue state and the latest release only for the rules that read them', () => {
    expect(
      needsOf([
        rule({
          conditions: [{ id: Ids.EventFrequencyPercent, value: 10, interval: '30m', comparisonType: 'count' }],
          filters: [{ id: Ids.IssueOccurrencesFilter, value: 3 }, { id: Ids.LatestReleaseFilter }],
        }),
      ]),
    ).toMatchObject({ eventCounts: true, sessions: true, issueState: true, latestRelease: true, issueAge: false, eventWindows: [1800] });
    expect(needsOf([rule({ filters: [{ id: Ids.AssignedToFilter, targetType: 'Unassigned', targetIdentifier: null }] })])).toMatchObject({
      issueState: true,
      sessions: false,
      latestRelease: false,
    });
  });
});

describe('the conditions and filters Sentry added', () => {
  const every = [{ id: Ids.EveryEvent }] as IssueRuleDefinition['conditions'];

  it('reappeared passes only for the event that brought an ignored issue back', () => {
    const reappeared = rule({ conditions: [{ id: Ids.ReappearedEvent }] });
    expect(rulePasses(reappeared, facts({ isReappeared: true }))).toBe(true);
    expect(rulePasses(reappeared, facts({ isRegression: true }))).toBe(false);
    expect(rulePasses(reappeared, facts())).toBe(false);
  });

  it('percent of sessions: the events against the sessions an interval of the last hour holds on average', () => {
    const percent = rule({ conditions: [{ id: Ids.EventFrequencyPercent, value: 10, interval: '10m', comparisonType: 'count' }] });
    // 600 sessions in the hour are 100 per 10 minutes: 11 events are 11 %, 10 are not more than 10 %.
    expect(rulePasses(percent, facts({ eventsIn: () => 11, sessionsLastHour: () => 600 }))).toBe(true);
    expect(rulePasses(percent, facts({ eventsIn: () => 10, sessionsLastHour: () => 600 }))).toBe(false);
  });

  it('percent of sessions stays quiet below 50 sessions in the hour, or when none were read', () => {
    const percent = rule({ conditions: [{ id: Ids.EventFrequencyPercent, value: 0, interval: '1h', comparisonType: 'count' }] });
    expect(rulePasses(percent, facts({ eventsIn: () => 40, sessionsLastHour: () => 49 }))).toBe(false);
    expect(rulePasses(percent, facts({ eventsIn: () => 40, sessionsLastHour: () => 50 }))).toBe(true);
    expect(rulePasses(percent, facts({ eventsIn: () => 40 }))).toBe(false);
    expect(percentOfSessions(1, 300, '5m')).toBe(4);
    expect(percentOfSessions(1, 3000, '1h')).toBeCloseTo(0.03, 10);
  });

  it("frequency and percent conditions read the rule's environment's counts, all environments' without one", () => {
    const seen: Array<string | null> = [];
    const counting = facts({
      eventsIn: (_interval, environment) => {
        seen.push(environment);
        return environment === 'production' ? 1 : 5;
      },
      usersIn: (_interval, environment) => (environment === 'production' ? 1 : 5),
      sessionsLastHour: (environment) => (environment === 'production' ? 60 : 6000),
    });
    const frequent = { id: Ids.EventFrequency, value: 2, interval: '1h', comparisonType: 'count' } as const;
    expect(rulePasses(rule({ conditions: [frequent] }), counting)).toBe(true);
    expect(rulePasses(rule({ conditions: [frequent], environment: 'production' }), counting)).toBe(false);
    expect(seen).toEqual([null, 'production']);
    const users = { id: Ids.EventUniqueUserFrequency, value: 2, interval: '1h', comparisonType: 'count' } as const;
    expect(rulePasses(rule({ conditions: [users], environment: 'production' }), counting)).toBe(false);
    expect(rulePasses(rule({ conditions: [users] }), counting)).toBe(true);
    // 1 of 60 sessions in production is 1.67 %; 5 of 6000 in all is 0.08 %.
    const percent = { id: Ids.EventFrequencyPercent, value: 1, interval: '1h', comparisonType: 'count' } as const;
    expect(rulePasses(rule({ conditions: [percent], environment: 'production' }), counting)).toBe(true);
    expect(rulePasses(rule({ conditions: [percent] }), counting)).toBe(false);
  });

  it('issue occurrences: the issue was seen at least the value times', () => {
    const threeTimes = rule({ conditions: every, filters: [{ id: Ids.IssueOccurrencesFilter, value: 3 }] });
    expect(rulePasses(threeTimes, facts({ issueTimesSeen: 3 }))).toBe(true);
    expect(rulePasses(threeTimes, facts({ issueTimesSeen: 2 }))).toBe(false);
    expect(rulePasses(threeTimes, facts())).toBe(false);
  });

  it('assigned to: nobody, the team or the member', () => {
    const filtered = (targetType: 'Unassigned' | 'Team' | 'Member', targetIdentifier: string | null) =>
      rule({ conditions: every, filters: [{ id: Ids.AssignedToFilter, targetType, targetIdentifier }] });
    expect(rulePasses(filtered('Unassigned', null), facts({ assignee: null }))).toBe(true);
    expect(rulePasses(filtered('Unassigned', null), facts({ assignee: { type: 'team', id: '4' } }))).toBe(false);
    expect(rulePasses(filtered('Team', '4'), facts({ assignee: { type: 'team', id: '4' } }))).toBe(true);
    expect(rulePasses(filtered('Team', '4'), facts({ assignee: { type: 'user', id: '4' } }))).toBe(false);
    expect(rulePasses(filtered('Member', '4'), facts({ assignee: { type: 'user', id: '4' } }))).toBe(true);
    expect(rulePasses(filtered('Member', '5'), facts({ assignee: { type: 'user', id: '4' } }))).toBe(false);
    expect(rulePasses(filtered('Member', '4'), facts({ assignee: null }))).toBe(false);
  });

  it("latest release: the event's release is the project's latest", () => {
    const latest = rule({ conditions: every, filters: [{ id: Ids.LatestReleaseFilter }] });
    expect(rulePasses(latest, facts({ isLatestRelease: true }))).toBe(true);
    expect(rulePasses(latest, facts({ isLatestRelease: false }))).toBe(false);
    expect(rulePasses(latest, facts())).toBe(false);
  });
});
