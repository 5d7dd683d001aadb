import { FixedClock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { parseOutcomesQuery } from '../domain';
import { OutcomeStatsRepository } from './outcome-stats.repository';
import { ProjectReadModelsRepository } from './project-read-models.repository';
import { RollupsRepository } from './rollups.repository';
import { StatsPartitionsRepository } from './stats-partitions.repository';
import { StatsPartitionsWorker } from './stats-partitions.worker';
import { StatsRetentionRepository } from './stats-retention.repository';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.UTC(2026, 2, 10 + offset));
const at = (offset: number, time = '10:00:00') => new Date(`${day(offset).toISOString().slice(0, 10)}T${time}.000Z`);
const suffix = (offset: number) => day(offset).toISOString().slice(0, 10).replace(/-/g, '');
const week = (table: string) => [0, 1, 2, 3, 4, 5, 6, 7].map((offset) => `${table}_p${suffix(offset)}`);

/** The stats rollups' daily partitions on a real database: created ahead once by any number of workers, whole days dropped past retention, the default partitions' expired rows deleted. */
describe('StatsPartitionsWorker and stats retention', () => {
  let db: TestDatabase;
  const clock = new FixedClock(NOW);
  const config = loadConfig({ EVENT_RETENTION_DAYS: '30' });
  const rollups = new RollupsRepository();
  let partitions: StatsPartitionsRepository;
  let organizationId: string;
  let projectId: string;

  const table = (name: string) => partitions.tables.find((t) => t.partitions.table === `ingest.${name}`)!.partitions;
  const accept = (when: Date, quantity: number) =>
    db.database.transaction((tx) =>
      rollups.addOutcomes(tx, [{ organizationId, projectId, at: when, outcome: 'accepted', category: 'error', reason: null, quantity, timesSeen: 1 }]),
    );
  /** Where each received count of the project lies: `resolution day` → partition. */
  const placed = async () =>
    Object.fromEntries(
      (
        await db.database.query<{ resolution: string; bucket: Date; partition: string }>(
          `SELECT resolution, bucket, tableoid::regclass::text AS partition FROM ingest.project_stats WHERE project_id = $1 AND stat = 'received'`,
          [projectId],
        )
      ).map((row) => [`${row.resolution} ${row.bucket.toISOString().slice(0, 10)}`, row.partition]),
    );
  /** The daily received counts the project stats API reads, and the accepted total the organization stats API reads. */
  const answers = async () => {
    const buckets = await new ProjectReadModelsRepository().statBuckets(
      db.database,
      projectId,
      'received',
      '1d',
      at(-45).getTime() / 1000,
      NOW.getTime() / 1000,
    );
    const query = parseOutcomesQuery(
      { field: ['sum(quantity)'], groupBy: [], category: ['error'], outcome: [], reason: [], project: [], statsPeriod: '60d', interval: '1d' },
      NOW.getTime() / 1000,
    );
    const totals = await new OutcomeStatsRepository().totals(db.database, organizationId, [projectId], query);
    return {
      daily: Object.fromEntries(buckets.map((row) => [row.bucket.toISOString().slice(0, 10), Number(row.count)])),
      accepted: totals.reduce((sum, row) => sum + row.quantity, 0),
    };
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    partitions = new StatsPartitionsRepository(db.database, config);
    // The migration made days around the machine's date; this test's days are its clock's alone.
    for (const { partitions: table } of partitions.tables) for (const existing of await table.days()) await table.dropDay(existing);
    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id::text`);
    organizationId = org.id;
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
      [organizationId],
    );
    projectId = project.id;
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates today and the week ahead of every table once whatever the number of workers, and leaves the days the default partitions hold rows of to them', async () => {
    // Counted before any day had a partition: three days ago (past the 10-second buckets' day), and past retention.
    await accept(at(-3), 5);
    await accept(at(-40), 7);
    const before = await answers();

    const workers = [0, 1, 2].map(() => new StatsPartitionsWorker(partitions, clock));
    const rounds = await Promise.all(workers.map((worker) => worker.maintain()));
    // A worker that finds another changing a table's partitions leaves the day to it or to its next round.
    rounds.push(await workers[0].maintain());
    expect(rounds.flat().sort()).toEqual(
      [...week('project_stats_10s'), ...week('project_stats_1h'), ...week('project_stats_1d'), ...week('outcome_stats')].sort(),
    );
    expect(await workers[1].maintain()).toEqual([]);
    // A day whose rows the default partition holds gets none: moving them would race their writers.
    for (const { partitions: kept } of partitions.tables) expect(await kept.createDay(day(-3))).toBe(false);

    await accept(at(0), 2);
    expect(await placed()).toEqual({
      '10s 2026-03-10': 'ingest.project_stats_10s_p20260310',
      '1h 2026-03-10': 'ingest.project_stats_1h_p20260310',
      '1d 2026-03-10': 'ingest.project_stats_1d_p20260310',
      '10s 2026-03-07': 'ingest.project_stats_10s_default',
      '1h 2026-03-07': 'ingest.project_stats_1h_default',
      '1d 2026-03-07': 'ingest.project_stats_1d_default',
      '10s 2026-01-29': 'ingest.project_stats_10s_default',
      '1h 2026-01-29': 'ingest.project_stats_1h_default',
      '1d 2026-01-29': 'ingest.project_stats_1d_default',
    });
    const outcomes = await db.database.query<{ partition: string }>(
      `SELECT DISTINCT tableoid::regclass::text AS partition FROM ingest.outcome_stats WHERE project_id = $1 ORDER BY 1`,
      [projectId],
    );
    expect(outcomes.map((row) => row.partition)).toEqual(['ingest.outcome_stats_default', 'ingest.outcome_stats_p20260310']);
    expect(await answers()).toEqual({ daily: { ...before.daily, '2026-03-10': 2 }, accepted: before.accepted + 2 });

    // The upserts add to a day's rows and to the default partition's alike.
    await accept(at(0, '10:00:05'), 1);
    await accept(at(-40), 1);
    expect(await answers()).toEqual({ daily: { '2026-01-29': 8, '2026-03-07': 5, '2026-03-10': 3 }, accepted: 16 });
  });

  it('drops whole days past each table’s retention and the default partitions’ expired strays, and keeps the other days and their counts', async () => {
    // Days created when they were current: 10-second buckets two days and one day old, the others 35 days old and in the day holding the cutoff.
    for (const [name, offset, resolution] of [
      ['project_stats_10s', -2, '10s'],
      ['project_stats_10s', -1, '10s'],
      ['project_stats_1h', -35, '1h'],
      ['project_stats_1h', -30, '1h'],
    ] as const) {
      await table(name).createDay(day(offset));
      await db.database.execute(`INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count) VALUES ($1, 'received', $2, $3, 1)`, [
        projectId,
        resolution,
        at(offset, '01:00:00'),
      ]);
    }
    const before = await answers();

    const retention = new StatsRetentionRepository(partitions);
    // Whole days: 10 s two days ago and 1 h 35 days ago, a row each. Strays: 40 days ago, 2 stats at 3 resolutions and 2 outcome
    // rows (hourly, daily); 10 s three days ago, 2 stats.
    expect(await retention.prune(clock.now())).toBe(1 + 1 + 2 * 3 + 2 + 2);
    expect(await placed()).toEqual({
      '10s 2026-03-10': 'ingest.project_stats_10s_p20260310',
      '1h 2026-03-10': 'ingest.project_stats_1h_p20260310',
      '1d 2026-03-10': 'ingest.project_stats_1d_p20260310',
      '1h 2026-03-07': 'ingest.project_stats_1h_default',
      '1d 2026-03-07': 'ingest.project_stats_1d_default',
      '10s 2026-03-09': 'ingest.project_stats_10s_p20260309',
      '1h 2026-02-08': 'ingest.project_stats_1h_p20260208',
    });
    const days = async (name: string) => (await table(name).days()).map((d) => d.toISOString().slice(0, 10));
    expect(await days('project_stats_10s')).toEqual(['2026-03-09', ...[0, 1, 2, 3, 4, 5, 6, 7].map((offset) => day(offset).toISOString().slice(0, 10))]);
    expect(await days('project_stats_1h')).toEqual(expect.not.arrayContaining(['2026-02-03']));
    expect(await days('project_stats_1h')).toEqual(expect.arrayContaining(['2026-02-08', '2026-03-10']));
    // What the APIs answer within retention is as it was; the counts past retention are gone.
    const { '2026-01-29': expired, ...kept } = before.daily;
    expect(expired).toBe(8);
    expect(await answers()).toEqual({ daily: kept, accepted: 8 });

    expect(await retention.prune(clock.now())).toBe(0);
    // A day later the day of the old cutoff is past retention as a whole, and yesterday's 10-second buckets too.
    clock.advance(DAY);
    expect(await retention.prune(clock.now())).toBe(2);
    expect(Object.keys(await placed()).sort()).toEqual(['10s 2026-03-10', '1d 2026-03-07', '1d 2026-03-10', '1h 2026-03-07', '1h 2026-03-10']);
  });
});
