import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { SessionInput } from '../contracts/session-intake';
import { SessionMemberKind } from '../domain/session-rollup';
import { releasesConfig } from './releases-config';
import { readReleaseHealth, type SessionFilter, SessionHealthRepository } from './session-health.repository';

const session = (fields: Partial<SessionInput>): SessionInput => ({
  organizationId: '1',
  projectId: '10',
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

/** Sessions folded into hourly counts and sets, by concurrent batches, within the per-hour budgets. */
describe('SessionHealthRepository', () => {
  let db: TestDatabase;
  let repository: SessionHealthRepository;
  const filter = (fields: Partial<SessionFilter> = {}): SessionFilter => ({
    projectIds: ['10'],
    start: '2026-03-10T00:00:00.000Z',
    end: '2026-03-11T00:00:00.000Z',
    intervalSeconds: 3600,
    environments: [],
    releases: [],
    groupBy: ['release'],
    ...fields,
  });

  beforeAll(async () => {
    db = await openTestDatabase();
    repository = new SessionHealthRepository(db.database, releasesConfig({ SESSIONS_MAX_RELEASES_PER_HOUR: '3', SESSIONS_MAX_DISTINCT_IDS_PER_HOUR: '50' }));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('adds concurrent batches up, and counts an errored session once whatever its updates', async () => {
    const batch = (n: number) => [
      session({ sessionId: `s-${n}`, total: 1, distinctId: `u-${n % 3}` }),
      session({ sessionId: `s-${n}`, errored: 1, distinctId: `u-${n % 3}` }),
      session({ sessionId: `s-${n}`, errored: 1, crashed: n === 0 ? 1 : 0, distinctId: `u-${n % 3}` }),
      session({ total: 2, errored: 1, started: '2026-03-10T13:30:00.000Z' }),
    ];
    await Promise.all(Array.from({ length: 8 }, (_, n) => repository.record(batch(n))));
    // A retry of the same updates adds no errored session.
    await repository.record(batch(1).slice(1, 3));

    const counts = await repository.counts(filter());
    expect(counts.sort((a, b) => a.slot - b.slot)).toEqual([
      { group: { release: 'shop@1' }, slot: 12, started: 8, errored: 8, abnormal: 0, crashed: 1 },
      { group: { release: 'shop@1' }, slot: 13, started: 16, errored: 8, abnormal: 0, crashed: 0 },
    ]);
    const users = await repository.users(filter({ groupBy: [] }));
    const whole = (kind: SessionMemberKind) => users.find((row) => row.slot === null && row.kind === kind)?.users;
    expect([whole(SessionMemberKind.user), whole(SessionMemberKind.erroredUser), whole(SessionMemberKind.crashedUser)]).toEqual([3, 3, 1]);

    const health = await readReleaseHealth(
      db.database,
      [{ projectId: '10', release: 'shop@1' }],
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-03-10T14:20:00Z'),
    );
    expect(health.releases).toEqual([
      expect.objectContaining({
        sessions: 24,
        crashed: 1,
        errored: 16,
        users: 3,
        crashedUsers: 1,
        sessions24h: 24,
        users24h: 3,
        hourly: [...Array(21).fill(0), 8, 16, 0],
      }),
    ]);
    expect(health.projects).toEqual([{ projectId: '10', sessions24h: 24, users24h: 3 }]);
  });

  it("keeps a project's hour within its budgets of releases and distinct ids", async () => {
    const started = '2026-03-10T20:00:00.000Z';
    await repository.record(Array.from({ length: 5 }, (_, n) => session({ projectId: '11', release: `r-${n}`, started, total: 1 })));
    await repository.record(Array.from({ length: 80 }, (_, n) => session({ projectId: '11', release: 'r-0', started, total: 1, distinctId: `u-${n}` })));
    // Known releases still count; new ones past the budget are dropped.
    await repository.record([session({ projectId: '11', release: 'r-1', started, total: 1 }), session({ projectId: '11', release: 'r-9', started, total: 1 })]);
    const counts = await repository.counts(filter({ projectIds: ['11'] }));
    expect(Object.fromEntries(counts.map((row) => [row.group.release, row.started]))).toEqual({ 'r-0': 81, 'r-1': 2, 'r-2': 1 });
    const users = await repository.users(filter({ projectIds: ['11'], groupBy: [] }));
    expect(users.find((row) => row.slot === null && row.kind === SessionMemberKind.user)?.users).toBe(50);
  });
});
