import type { SessionInput } from '../contracts/session-intake';
import { answerSessionQuery, parseSessionQuery, parseSessionSearch, SessionQueryError } from './session-query';
import { foldSessions, SessionMemberKind } from './session-rollup';

const HOUR = 3_600_000;
const session = (fields: Partial<SessionInput>): SessionInput => ({
  organizationId: '1',
  projectId: '2',
  release: 'shop@1',
  environment: 'production',
  started: '2026-03-10T12:10:00.000Z',
  distinctId: null,
  sessionId: null,
  total: 0,
  errored: 0,
  abnormal: 0,
  crashed: 0,
  ...fields,
});

describe('folding sessions into hourly counts and sets', () => {
  it('folds by project, release, environment and hour; errored single sessions go to the set of their ids', () => {
    const { counts, members } = foldSessions([
      session({ sessionId: 'a', total: 1, distinctId: 'u-1' }),
      session({ sessionId: 'b', total: 1, errored: 1, distinctId: 'u-2' }),
      session({ sessionId: 'b', errored: 1, distinctId: 'u-2' }),
      session({ total: 5, errored: 2, crashed: 1, started: '2026-03-10T12:59:59.000Z' }),
      session({ total: 1, environment: null, started: '2026-03-10T13:00:00.000Z' }),
    ]);
    expect(counts).toEqual([
      {
        organizationId: '1',
        projectId: '2',
        release: 'shop@1',
        environment: 'production',
        bucket: '2026-03-10T12:00:00.000Z',
        started: 7,
        errored: 2,
        abnormal: 0,
        crashed: 1,
      },
      {
        organizationId: '1',
        projectId: '2',
        release: 'shop@1',
        environment: '',
        bucket: '2026-03-10T13:00:00.000Z',
        started: 1,
        errored: 0,
        abnormal: 0,
        crashed: 0,
      },
    ]);
    // One errored session id however many updates; users per status, once each.
    expect(members.map((m) => m.kind).sort()).toEqual(
      [SessionMemberKind.user, SessionMemberKind.user, SessionMemberKind.erroredUser, SessionMemberKind.erroredSession].sort(),
    );
  });
});

describe("Sentry's sessions query", () => {
  const range = { start: new Date('2026-03-10T00:30:00Z'), end: new Date('2026-03-11T00:30:00Z'), now: new Date('2026-03-11T00:30:00Z') };

  it("aligns the range to whole intervals as Sentry's get_constrained_date_range does", () => {
    const query = parseSessionQuery({ fields: ['sum(session)'], groupBy: [], interval: '6h', ...range });
    // A day of 6h intervals ending at the interval after the end; the answer ends at the next minute.
    expect(query).toMatchObject({ start: new Date('2026-03-10T06:00:00Z'), end: new Date('2026-03-11T00:31:00Z'), intervals: 4, intervalMs: 6 * HOUR });
    const past = parseSessionQuery({ fields: ['sum(session)'], groupBy: [], interval: '1h', ...range, now: new Date('2026-03-12T00:00:00Z') });
    expect(past).toMatchObject({ start: new Date('2026-03-10T01:00:00Z'), end: new Date('2026-03-11T01:00:00Z'), intervals: 24 });
  });

  it.each([
    [{ fields: [] }, 'Request is missing a "field"'],
    [{ fields: ['p50(session.duration)'] }, 'Invalid field: "p50(session.duration)"'],
    [{ groupBy: ['user'] }, 'Invalid groupBy: "user"'],
    [{ interval: '90m' }, 'multiple of the minimum interval of one hour'],
    [{ interval: '2d' }, 'less than one day'],
    [{ interval: '5h' }, 'divide one day'],
    [{ interval: 'soon' }, 'Invalid interval'],
    [{ start: new Date('2020-01-01T00:00:00Z') }, 'too many results'],
  ])('refuses %j', (change, message) => {
    expect(() => parseSessionQuery({ fields: ['sum(session)'], groupBy: [], ...range, ...change })).toThrow(SessionQueryError);
    expect(() => parseSessionQuery({ fields: ['sum(session)'], groupBy: [], ...range, ...change })).toThrow(message);
  });

  it('reads release and environment terms, quoted and in lists', () => {
    expect(parseSessionSearch('release:"shop@1 beta" environment:[production, staging] release:b')).toEqual({
      releases: ['shop@1 beta', 'b'],
      environments: ['production', 'staging'],
    });
    expect(() => parseSessionSearch('transaction:/checkout')).toThrow('cannot be searched by transaction');
    expect(() => parseSessionSearch('free text')).toThrow('only release: and environment: terms');
  });

  it('answers rates, users and statuses as metrics_sessions_v2 does', () => {
    const query = parseSessionQuery({
      fields: ['sum(session)', 'count_unique(user)', 'crash_free_rate(session)', 'crash_free_rate(user)'],
      groupBy: [],
      interval: '12h',
      ...range,
    });
    const counts = [
      { group: {}, slot: 0, started: 6, errored: 3, abnormal: 0, crashed: 1 },
      { group: {}, slot: 1, started: 2, errored: 0, abnormal: 0, crashed: 0 },
    ];
    const users = [
      { group: {}, kind: SessionMemberKind.user, slot: null, users: 4 },
      { group: {}, kind: SessionMemberKind.crashedUser, slot: null, users: 1 },
      { group: {}, kind: SessionMemberKind.user, slot: 0, users: 4 },
    ];
    const answer = answerSessionQuery(query, counts, users, '');
    expect(answer.intervals).toEqual(['2026-03-10T12:00:00Z', '2026-03-11T00:00:00Z']);
    expect(answer.groups).toEqual([
      {
        by: {},
        totals: { 'sum(session)': 8, 'count_unique(user)': 4, 'crash_free_rate(session)': 1 - 1 / 8, 'crash_free_rate(user)': 0.75 },
        series: {
          'sum(session)': [6, 2],
          'count_unique(user)': [4, 0],
          'crash_free_rate(session)': [1 - 1 / 6, 1],
          'crash_free_rate(user)': [1, null],
        },
      },
    ]);

    const byStatus = answerSessionQuery({ ...query, groupBy: ['session.status'] }, counts, users, '');
    expect(Object.fromEntries(byStatus.groups.map((group) => [group.by['session.status'], group.totals['sum(session)']]))).toEqual({
      healthy: 5,
      errored: 2,
      abnormal: 0,
      crashed: 1,
    });
    expect(byStatus.groups.every((group) => group.totals['crash_free_rate(session)'] === null)).toBe(true);
  });

  it('answers one empty group without a group-by, and none with one', () => {
    const query = parseSessionQuery({ fields: ['sum(session)'], groupBy: [], ...range });
    expect(answerSessionQuery(query, [], [], '').groups).toEqual([{ by: {}, totals: { 'sum(session)': 0 }, series: { 'sum(session)': expect.any(Array) } }]);
    expect(answerSessionQuery({ ...query, groupBy: ['release'] }, [], [], '').groups).toEqual([]);
  });
});
