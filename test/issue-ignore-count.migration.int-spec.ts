import { randomUUID } from 'node:crypto';
import { IssueIgnoreCount1763800001300 } from '../migrations/1763800001300-issue-ignore-count';
import { openTestDatabase, type TestDatabase } from './support/test-database';

/** Issues ignored before migration 1300 get the event count their last ignore would have noted. */
describe('migration 1300: the event count at an ignore', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('notes, for each ignored issue, its count less the events stored since its last ignore', async () => {
    const { database } = db;
    const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [{ id: projectId }] = await database.query<{ id: string }>(
      `INSERT INTO projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [organizationId],
    );
    const issue = async (shortId: string, status: string, timesSeen: number) => {
      const [{ id }] = await database.query<{ id: string }>(
        `INSERT INTO issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen, times_seen, user_count)
         VALUES ($1, $2, $2, 'TypeError: x', 'app', 'error', 'node', $3, 'ongoing', now(), now(), $4, 3) RETURNING id`,
        [projectId, shortId, status, timesSeen],
      );
      return String(id);
    };
    const storeEvents = (issueId: string, receivedAt: string[]) =>
      database.execute(
        `INSERT INTO error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
         SELECT $1, $2, md5(random()::text), at, at, '{}' FROM unnest($3::timestamptz[]) AS at`,
        [projectId, issueId, receivedAt],
      );
    const ignoredAt = async (issueId: string, version: number, at: string) =>
      database.execute(
        `INSERT INTO events (stream_id, stream_type, version, event_id, event_type, data) VALUES ($1, 'issue', $2, $3, 'issues.IssueIgnored', $4)`,
        [`issue-${issueId}`, version, randomUUID(), JSON.stringify({ issueId, at, untilCount: 10 })],
      );

    const reignored = await issue('WEB-1', 'ignored', 7);
    await storeEvents(reignored, ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z']);
    await ignoredAt(reignored, 1, '2026-01-01T12:00:00Z');
    await ignoredAt(reignored, 2, '2026-01-02T12:00:00Z');
    const unresolved = await issue('WEB-2', 'unresolved', 3);

    const migration = new IssueIgnoreCount1763800001300();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    const rows = await database.query<{ id: string; times_seen_at_ignore: string | null; user_count_at_ignore: number | null }>(
      `SELECT id, times_seen_at_ignore, user_count_at_ignore FROM issues WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[reignored, unresolved]],
    );
    // 7 seen, 2 of the stored events arrived after the last ignore; 3 users, as no ignore had a user condition.
    expect(rows.map((row) => [String(row.id), row.times_seen_at_ignore === null ? null : Number(row.times_seen_at_ignore), row.user_count_at_ignore])).toEqual([
      [reignored, 5, 3],
      [unresolved, null, null],
    ]);
  });
});
