import { FixedClock } from '@faultline/kernel';
import type { DailyPartitions } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { AlertCountsRepository, countKey } from './alert-counts.repository';
import { AlertMinutePartitionsRepository } from './alert-minute-partitions.repository';
import { AlertMinutePartitionsWorker } from './alert-minute-partitions.worker';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;
const THIRTY_DAYS = 30 * 86_400;
const day = (offset: number) => new Date(Date.UTC(2026, 2, 10 + offset));
const at = (offset: number, time = '10:00:00') => new Date(`${day(offset).toISOString().slice(0, 10)}T${time}.000Z`);
const suffix = (offset: number) => day(offset).toISOString().slice(0, 10).replace(/-/g, '');
const week = (table: string) => [0, 1, 2, 3, 4, 5, 6, 7].map((offset) => `${table}_p${suffix(offset)}`);

/** The alert minutes' daily partitions on a real database: created ahead once by any number of workers, whole days dropped past what rules read, the default partitions' expired rows deleted. */
describe('AlertMinutePartitionsWorker and alert minutes retention', () => {
  let db: TestDatabase;
  const clock = new FixedClock(NOW);
  const counts = new AlertCountsRepository();
  let partitions: AlertMinutePartitionsRepository;
  let projectId: string;
  let issueId: string;

  /** Records `events` events of `user` in the minute `bucket`; answers the issue's events before them and its users, in the last 30 days. */
  const record = async (bucket: Date, events: number, user: string) => {
    const read = await db.database.transaction((tx) =>
      counts.recordAndRead(tx, {
        events: [{ issueId, projectId, bucket, environment: 'production', level: 'error', events }],
        users: [{ issueId, projectId, bucket, environment: 'production', level: 'error', user }],
        countIssues: [issueId],
        countEnvironments: [],
        eventWindows: [THIRTY_DAYS],
        userWindows: [THIRTY_DAYS],
        stateIssues: [],
        ruleIssues: [],
        now: clock.now(),
      }),
    );
    return { events: read.eventsBefore.get(countKey(issueId, THIRTY_DAYS, null)) ?? 0, users: read.users.get(countKey(issueId, THIRTY_DAYS, null)) ?? 0 };
  };
  /** What a metric rule over the project reads in its window (minutes) ending now: events, and distinct users. */
  const metric = async (timeWindow: number) => {
    const rule = { projectIds: [projectId], timeWindow, environment: null, filter: {} };
    const values = await counts.metricValues(
      db.database,
      [
        { ...rule, id: '1', aggregate: 'count()' },
        { ...rule, id: '2', aggregate: 'count_unique(user)' },
      ],
      clock.now(),
    );
    return { events: values.get('1'), users: values.get('2') };
  };
  const placed = async () =>
    (
      await db.database.query<{ partition: string; bucket: Date }>(
        `SELECT tableoid::regclass::text AS partition, bucket FROM alerts.alert_issue_minutes WHERE issue_id = $1
         UNION ALL SELECT tableoid::regclass::text, bucket FROM alerts.alert_issue_minute_users WHERE issue_id = $1 ORDER BY 1, 2`,
        [issueId],
      )
    ).map((row) => `${row.partition} ${row.bucket.toISOString().slice(0, 10)}`);
  const table = (name: string): DailyPartitions => partitions.tables.find((t) => t.table === `alerts.${name}`)!;

  beforeAll(async () => {
    db = await openTestDatabase();
    partitions = new AlertMinutePartitionsRepository(db.database);
    // The migration made days around the machine's date; this test's days are its clock's alone.
    for (const days of partitions.tables) for (const existing of await days.days()) await days.dropDay(existing);
    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id::text`);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
      [org.id],
    );
    projectId = project.id;
    const [issue] = await db.database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen) VALUES ($1, 'f', 'WEB-1', 't', 'error', 'node', $2, $2) RETURNING id::text`,
      [projectId, at(-40)],
    );
    issueId = issue.id;
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates today and the week ahead once whatever the number of workers, and leaves the days the default partitions hold rows of to them', async () => {
    // Counted before any day had a partition: three days ago, and past what any rule reads.
    await record(at(-40), 7, 'old');
    await record(at(-3), 5, 'ada');

    const workers = [0, 1, 2].map(() => new AlertMinutePartitionsWorker(partitions, clock));
    const rounds = await Promise.all(workers.map((worker) => worker.maintain()));
    // A worker that finds another changing a table's partitions leaves the day to it or to its next round.
    rounds.push(await workers[0].maintain());
    expect(rounds.flat().sort()).toEqual([...week('alert_issue_minutes'), ...week('alert_issue_minute_users')].sort());
    expect(await workers[1].maintain()).toEqual([]);
    // A day whose rows the default partition holds gets none: moving them would race their writers.
    for (const kept of partitions.tables) expect(await kept.createDay(day(-3))).toBe(false);

    expect(await record(at(0), 2, 'grace')).toEqual({ events: 5, users: 2 });
    expect(await placed()).toEqual([
      'alerts.alert_issue_minute_users_default 2026-01-29',
      'alerts.alert_issue_minute_users_default 2026-03-07',
      'alerts.alert_issue_minute_users_p20260310 2026-03-10',
      'alerts.alert_issue_minutes_default 2026-01-29',
      'alerts.alert_issue_minutes_default 2026-03-07',
      'alerts.alert_issue_minutes_p20260310 2026-03-10',
    ]);

    // The upserts add to a day's minutes; the rules read across the days.
    expect(await record(at(0), 1, 'grace')).toEqual({ events: 7, users: 2 });
    expect(await metric(60 * 24 * 7)).toEqual({ events: 8, users: 2 });
    expect(await metric(60 * 24 * 60)).toEqual({ events: 15, users: 3 });
  });

  it('drops whole days past what rules read and the default partitions’ expired strays, and keeps the other days and their counts', async () => {
    // Days created when they were current: 35 days old, and the day holding the cutoff (31 days before now).
    for (const offset of [-35, -31]) {
      for (const name of ['alert_issue_minutes', 'alert_issue_minute_users']) await table(name).createDay(day(offset));
      await record(at(offset, '01:00:00'), 1, `user${-offset}`);
    }
    expect(await metric(60 * 24 * 60)).toEqual({ events: 17, users: 5 });

    // Whole days 35 days ago (a minute and a user); strays 40 days ago (a minute and a user).
    expect(await partitions.prune(clock.now())).toBe(4);
    expect(await placed()).toEqual([
      'alerts.alert_issue_minute_users_default 2026-03-07',
      'alerts.alert_issue_minute_users_p20260207 2026-02-07',
      'alerts.alert_issue_minute_users_p20260310 2026-03-10',
      'alerts.alert_issue_minutes_default 2026-03-07',
      'alerts.alert_issue_minutes_p20260207 2026-02-07',
      'alerts.alert_issue_minutes_p20260310 2026-03-10',
    ]);
    expect((await table('alert_issue_minutes').days()).map((d) => d.toISOString())).not.toContain(day(-35).toISOString());
    // The 30 days rules read are as they were.
    expect(await metric(60 * 24 * 30)).toEqual({ events: 8, users: 2 });
    expect(await record(at(0), 0, 'grace')).toEqual({ events: 8, users: 2 });

    expect(await partitions.prune(clock.now())).toBe(0);
    // A day later the day of the old cutoff is past as a whole.
    clock.advance(DAY);
    expect(await partitions.prune(clock.now())).toBe(2);
    expect(await metric(60 * 24 * 60)).toEqual({ events: 8, users: 2 });
  });
});
