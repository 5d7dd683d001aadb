import { FixedClock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { EventAttachmentsRepository } from './event-attachments.repository';
import { EventPartitionsRepository } from './event-partitions.repository';
import { EventPartitionsWorker } from './event-partitions.worker';
import { EventRetentionRepository } from './event-retention.repository';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.UTC(2026, 10, 22 + offset)).toISOString();
const at = (offset: number, time = '10:00:00') => `${day(offset).slice(0, 10)}T${time}.000Z`;

/** The stored events' daily partitions on a real database: created ahead once by any number of workers, strays moved in, whole days dropped past retention. */
describe('EventPartitionsWorker and event retention', () => {
  let db: TestDatabase;
  const clock = new FixedClock(NOW);
  const config = loadConfig({ EVENT_RETENTION_DAYS: '30' });
  let partitions: EventPartitionsRepository;
  let projectId: string;
  let issueId: string;

  const store = async (eventId: string, receivedAt: string) => {
    await db.database.execute(
      `WITH stored AS (
         INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data) VALUES ($1, $2, $3, $4, $4, '{}')
         RETURNING id, project_id, event_id, received_at)
       INSERT INTO issues.event_ids (project_id, event_id, received_at, id) SELECT project_id, event_id, received_at, id FROM stored`,
      [projectId, issueId, eventId, receivedAt],
    );
  };
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
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates today and the week ahead once whatever the number of workers, and moves the default partition’s strays into their day', async () => {
    // Received before any day had a partition: today, three days ago, and past retention.
    await store('today', at(0));
    await store('recent', at(-3, '23:59:59'));
    await store('expired', at(-40));
    expect(new Set(Object.values(await placed()))).toEqual(new Set(['issues.error_events_default']));

    const workers = [0, 1, 2].map(() => new EventPartitionsWorker(partitions, clock, config));
    const rounds = await Promise.all(workers.map((worker) => worker.maintain()));
    // A worker that finds another changing the partitions leaves the day to it or to its next round.
    rounds.push(await workers[0].maintain());
    const created = rounds.flat().map((created) => created.toISOString());
    expect(created.sort()).toEqual([day(-3), day(0), day(1), day(2), day(3), day(4), day(5), day(6), day(7)]);
    expect((await partitions.days()).map((d) => d.toISOString())).toEqual(created);

    expect(await placed()).toEqual({
      today: 'issues.error_events_p20261122',
      recent: 'issues.error_events_p20261119',
      expired: 'issues.error_events_default',
    });
    // New events go straight to their day; the partitions keep the table's indexes and compression.
    await store('tomorrow', at(1));
    expect((await placed()).tomorrow).toBe('issues.error_events_p20261123');
    const indexes = await db.database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_catalog.pg_indexes WHERE schemaname = 'issues' AND tablename = 'error_events_p20261123'`,
    );
    expect(indexes[0].count).toBe(4); // the primary key, by issue, by project and time, by issue and hash
    expect(await workers[1].maintain()).toEqual([]);
  });

  it('drops whole days past retention and the default partition’s expired strays, keeps the issue and its counts, and frees the ids', async () => {
    // A day created when it was current, now past retention (30 days before the day of the cutoff).
    await partitions.createDay(new Date(day(-35)));
    await store('old', at(-35));
    // The day holding the cutoff (2026-10-23 12:00) is kept whole.
    await partitions.createDay(new Date(day(-30)));
    await store('edge', at(-30, '01:00:00'));

    const attachments = { prune: async () => 0 } as unknown as EventAttachmentsRepository;
    const retention = new EventRetentionRepository(db.database, config, attachments, partitions);
    expect(await retention.prune(clock.now())).toBe(2);

    expect(Object.keys(await placed()).sort()).toEqual(['edge', 'recent', 'today', 'tomorrow']);
    expect((await partitions.days()).map((d) => d.toISOString())).not.toContain(day(-35));
    const claims = await db.database.query<{ event_id: string }>(`SELECT event_id FROM issues.event_ids WHERE project_id = $1 ORDER BY event_id`, [projectId]);
    expect(claims.map((claim) => claim.event_id)).toEqual(['edge', 'recent', 'today', 'tomorrow']);
    const [issue] = await db.database.query<{ times_seen: string }>(`SELECT times_seen::text FROM issues.issues WHERE id = $1`, [issueId]);
    expect(issue.times_seen).toBe('5');

    expect(await retention.prune(clock.now())).toBe(0);
    // A day later the day of the old cutoff is past retention as a whole.
    clock.advance(DAY);
    expect(await retention.prune(clock.now())).toBe(1);
    expect(Object.keys(await placed()).sort()).toEqual(['recent', 'today', 'tomorrow']);
  });
});
