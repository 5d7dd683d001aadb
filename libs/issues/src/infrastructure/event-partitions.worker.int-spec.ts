import { FixedClock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import { storeEvent } from '../../../../test/support/stored-events';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { EventAttachmentsRepository } from './event-attachments.repository';
import { EventPartitionsRepository } from './event-partitions.repository';
import { EventPartitionsWorker } from './event-partitions.worker';
import { EventRetentionRepository } from './event-retention.repository';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.UTC(2026, 10, 22 + offset)).toISOString();
const at = (offset: number, time = '10:00:00') => `${day(offset).slice(0, 10)}T${time}.000Z`;

/**
 * The daily partitions of the stored events, their ids' claims and the issues' graph counts on a
 * real database: created ahead once by any number of workers, whole days dropped past retention,
 * the default partitions' expired rows deleted.
 */
describe('EventPartitionsWorker and event retention', () => {
  let db: TestDatabase;
  const clock = new FixedClock(NOW);
  const config = loadConfig({ EVENT_RETENTION_DAYS: '30' });
  let partitions: EventPartitionsRepository;
  let projectId: string;
  let issueId: string;

  const store = (eventId: string, receivedAt: string) => storeEvent(db.database, { projectId, issueId, eventId, occurredAt: receivedAt, receivedAt });
  const count = (resolution: '1h' | '1d', bucket: string) =>
    db.database.execute(`INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) VALUES ($1, $2, $3, 1)`, [issueId, resolution, bucket]);
  /** Where each row of the issue's graph counts and the project's claims is, by resolution and bucket or by event id. */
  const placedElsewhere = async () =>
    Object.fromEntries([
      ...(
        await db.database.query<{ key: string; partition: string }>(
          `SELECT resolution || ' ' || to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS key, tableoid::regclass::text AS partition
           FROM issues.issue_stats WHERE issue_id = $1`,
          [issueId],
        )
      ).map((row) => [row.key, row.partition]),
      ...(
        await db.database.query<{ key: string; partition: string }>(
          `SELECT 'claim ' || event_id AS key, tableoid::regclass::text AS partition FROM issues.event_ids WHERE project_id = $1`,
          [projectId],
        )
      ).map((row) => [row.key, row.partition]),
    ]);
  const isoDays = (days: Date[]) => days.map((d) => d.toISOString());
  const placed = async () =>
    Object.fromEntries(
      (
        await db.database.query<{ event_id: string; partition: string }>(
          `SELECT event_id, tableoid::regclass::text AS partition FROM issues.error_events WHERE project_id = $1 ORDER BY event_id`,
          [projectId],
        )
      ).map((row) => [row.event_id, row.partition]),
    );

  beforeAll(async () => {
    db = await openTestDatabase();
    partitions = new EventPartitionsRepository(db.database);
    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [org.id],
    );
    projectId = String(project.id);
    const [issue] = await db.database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'f', 'WEB-1', 't', 'error', 'node', $2, $3, 5) RETURNING id`,
      [projectId, at(-40), at(0)],
    );
    issueId = String(issue.id);
    // The migration made the days around the real date; here the clock is fixed, so start from none.
    for (const table of [partitions.claims, partitions.hourlyStats, partitions.dailyStats]) await table.dropBefore(new Date('3000-01-01'));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates today and the week ahead of events, claims and counts once whatever the number of workers, and leaves the days the default partitions hold rows of to them', async () => {
    // Received before any day had a partition: three days ago, and past retention.
    await store('recent', at(-3, '23:59:59'));
    await store('expired', at(-40));
    // Counts of events that occurred days before they arrived: hourly ones are kept two days, daily ones as long as events.
    await count('1h', at(-1, '23:00:00'));
    await count('1h', at(-3, '23:00:00'));
    await count('1d', day(-3));
    await count('1d', day(-40));

    const workers = [0, 1, 2].map(() => new EventPartitionsWorker(partitions, clock));
    const rounds = await Promise.all(workers.map((worker) => worker.maintain()));
    // A worker that finds another changing the partitions leaves the day to it or to its next round.
    rounds.push(await workers[0].maintain());
    const ahead = [day(0), day(1), day(2), day(3), day(4), day(5), day(6), day(7)];
    for (const table of [partitions.events, partitions.claims, partitions.hourlyStats, partitions.dailyStats]) {
      // Each day made once, by one of the workers.
      const prefix = table.partitionName(new Date(0)).slice(0, -'19700101'.length);
      const created = rounds.flat().filter((name) => name.startsWith(prefix));
      expect({ table: table.table, created: created.sort() }).toEqual({
        table: table.table,
        created: ahead.map((made) => table.partitionName(new Date(made))),
      });
      // A day whose rows the default partition holds gets none: moving them would race their writers.
      expect(await table.createDay(new Date(table === partitions.hourlyStats ? day(-1) : day(-3)))).toBe(false);
      expect(isoDays(await table.days())).toEqual(ahead);
    }

    // New events go straight to their day; the partitions keep the table's indexes and compression.
    await store('today', at(0));
    await store('tomorrow', at(1));
    expect(await placed()).toEqual({
      today: 'issues.error_events_p20261122',
      tomorrow: 'issues.error_events_p20261123',
      recent: 'issues.error_events_default',
      expired: 'issues.error_events_default',
    });
    const indexes = await db.database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_catalog.pg_indexes WHERE schemaname = 'issues' AND tablename = 'error_events_p20261123'`,
    );
    expect(indexes[0].count).toBe(4); // the primary key, by issue, by project and time, by issue and hash
    expect(await placedElsewhere()).toEqual({
      'claim today': 'issues.event_ids_p20261122',
      'claim recent': 'issues.event_ids_default',
      'claim expired': 'issues.event_ids_default',
      'claim tomorrow': 'issues.event_ids_p20261123',
      '1h 2026-11-21 23:00': 'issues.issue_stats_hourly_default',
      '1h 2026-11-19 23:00': 'issues.issue_stats_hourly_default',
      '1d 2026-11-19 00:00': 'issues.issue_stats_daily_default',
      '1d 2026-10-13 00:00': 'issues.issue_stats_daily_default',
    });
    // A day's claims and counts keep their table's key, which ingestion's ON CONFLICT names.
    const keys = await db.database.query<{ table: string; key: string }>(
      `SELECT tablename AS table, indexdef AS key FROM pg_catalog.pg_indexes WHERE schemaname = 'issues' AND tablename IN ('event_ids_p20261123', 'issue_stats_hourly_p20261122')
       ORDER BY 1`,
    );
    expect(keys.map((row) => [row.table, row.key.replace(/^.* USING btree /, '')])).toEqual([
      ['event_ids_p20261123', '(project_id, event_id, claimed_on)'],
      ['issue_stats_hourly_p20261122', '(issue_id, resolution, bucket)'],
    ]);
    expect(await workers[1].maintain()).toEqual([]);
  });

  it('drops whole days of events, claims and counts past retention and the default partitions’ expired strays, leaves no dead rows in the days kept, and keeps the issue', async () => {
    // Days created when they were current, now past retention (30 days before the day of the cutoff).
    for (const table of [partitions.events, partitions.claims, partitions.dailyStats]) {
      await table.createDay(new Date(day(-35)));
      await table.createDay(new Date(day(-30)));
    }
    await store('old', at(-35));
    await count('1d', day(-35));
    // The day holding the cutoff (2026-10-23 12:00) is kept whole.
    await store('edge', at(-30, '01:00:00'));
    await count('1d', day(-30));
    // So is the day holding the hourly counts' (2026-11-20 12:00).
    await partitions.hourlyStats.createDay(new Date(day(-2)));
    await count('1h', at(-2, '06:00:00'));
    await count('1h', at(-2, '18:00:00'));

    const attachments = { prune: async () => 0 } as unknown as EventAttachmentsRepository;
    const retention = new EventRetentionRepository(config, attachments, partitions);
    expect(await retention.prune(clock.now())).toBe(2);

    expect(Object.keys(await placed()).sort()).toEqual(['edge', 'recent', 'today', 'tomorrow']);
    expect(await placedElsewhere()).toEqual({
      'claim edge': 'issues.event_ids_p20261023',
      'claim recent': 'issues.event_ids_default',
      'claim today': 'issues.event_ids_p20261122',
      'claim tomorrow': 'issues.event_ids_p20261123',
      '1h 2026-11-20 06:00': 'issues.issue_stats_hourly_p20261120',
      '1h 2026-11-20 18:00': 'issues.issue_stats_hourly_p20261120',
      '1h 2026-11-21 23:00': 'issues.issue_stats_hourly_default',
      '1d 2026-10-23 00:00': 'issues.issue_stats_daily_p20261023',
      '1d 2026-11-19 00:00': 'issues.issue_stats_daily_default',
    });
    for (const table of [partitions.events, partitions.claims, partitions.dailyStats]) {
      expect(isoDays(await table.days())).toEqual([day(-30), day(0), day(1), day(2), day(3), day(4), day(5), day(6), day(7)]);
    }
    // Dropped, not deleted: no day kept holds a dead row for autovacuum to chase.
    const kept = await db.database.query<{ name: string }>(
      `SELECT relid::regclass::text AS name FROM pg_partition_tree('issues.event_ids') WHERE isleaf
       UNION ALL SELECT relid::regclass::text FROM pg_partition_tree('issues.issue_stats') WHERE isleaf`,
    );
    const days = kept.map((row) => row.name).filter((name) => !name.endsWith('_default'));
    for (const name of days) await db.database.execute(`ANALYZE ${name}`);
    const tuples = await db.database.query<{ live: number; dead: number }>(
      `SELECT sum(n_live_tup)::int AS live, sum(n_dead_tup)::int AS dead FROM pg_stat_user_tables WHERE relid = ANY($1::regclass[])`,
      [days],
    );
    expect(tuples).toEqual([{ live: 6, dead: 0 }]);
    const [issue] = await db.database.query<{ times_seen: string }>(`SELECT times_seen::text FROM issues.issues WHERE id = $1`, [issueId]);
    expect(issue.times_seen).toBe('5');

    expect(await retention.prune(clock.now())).toBe(0);
    // A day later the days of the old cutoffs are past retention as a whole.
    clock.advance(DAY);
    expect(await retention.prune(clock.now())).toBe(1);
    expect(Object.keys(await placed()).sort()).toEqual(['recent', 'today', 'tomorrow']);
    expect(Object.keys(await placedElsewhere()).sort()).toEqual([
      '1d 2026-11-19 00:00',
      '1h 2026-11-21 23:00',
      'claim recent',
      'claim today',
      'claim tomorrow',
    ]);
  });
});
