import { IssueReleasesAndStats1763800001500 } from '../migrations/1763800001500-issue-releases-and-stats';
import { openTestDatabase, type TestDatabase } from './support/test-database';

/** Issues from before migration 1500 get their releases and graph counts from their stored events. */
describe('migration 1500: releases and event counts of existing issues', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('takes the first and newest releases named and counts the events per hour and per day (UTC)', async () => {
    const { database } = db;
    const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [{ id: projectId }] = await database.query<{ id: string }>(
      `INSERT INTO projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [organizationId],
    );
    const issue = async (shortId: string) => {
      const [{ id }] = await database.query<{ id: string }>(
        `INSERT INTO issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
         VALUES ($1, $2, $2, 'TypeError: x', 'app', 'error', 'node', now(), now(), 4) RETURNING id`,
        [projectId, shortId],
      );
      return String(id);
    };
    const released = await issue('WEB-1');
    const unreleased = await issue('WEB-2');
    const events: Array<[string, string, string | null]> = [
      [released, '2026-01-01T23:10:00Z', null],
      [released, '2026-01-02T00:20:00Z', 'web@1.0.0'],
      [released, '2026-01-02T00:40:00Z', 'web@1.1.0'],
      [released, '2026-01-02T05:00:00Z', null],
      [unreleased, '2026-01-02T05:00:00Z', null],
    ];
    await database.execute(
      `INSERT INTO error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
       SELECT $1, issue_id, md5(random()::text), at, at, CASE WHEN release IS NULL THEN '{}' ELSE json_build_object('release', release) END
       FROM unnest($2::bigint[], $3::timestamptz[], $4::text[]) AS e (issue_id, at, release)`,
      [projectId, events.map((e) => e[0]), events.map((e) => e[1]), events.map((e) => e[2])],
    );

    const migration = new IssueReleasesAndStats1763800001500();
    const runner = db.dataSource.createQueryRunner();
    try {
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await migration.down(runner);
      await migration.up(runner);
      await runner.query(`RESET TIME ZONE`);
    } finally {
      await runner.release();
    }

    const releases = await database.query<{ id: string; first_release: string | null; last_release: string | null }>(
      `SELECT id::text AS id, first_release, last_release FROM issues WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[released, unreleased]],
    );
    expect(releases).toEqual([
      { id: released, first_release: 'web@1.0.0', last_release: 'web@1.1.0' },
      { id: unreleased, first_release: null, last_release: null },
    ]);
    const stats = await database.query<{ resolution: string; bucket: Date; count: string }>(
      `SELECT resolution, bucket, count::text AS count FROM issue_stats WHERE issue_id = $1 ORDER BY resolution, bucket`,
      [released],
    );
    expect(stats.map((row) => [row.resolution, new Date(row.bucket).toISOString(), Number(row.count)])).toEqual([
      ['1d', '2026-01-01T00:00:00.000Z', 1],
      ['1d', '2026-01-02T00:00:00.000Z', 3],
      ['1h', '2026-01-01T23:00:00.000Z', 1],
      ['1h', '2026-01-02T00:00:00.000Z', 2],
      ['1h', '2026-01-02T05:00:00.000Z', 1],
    ]);
  });
});
