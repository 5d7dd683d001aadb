import { IssueTagValues1763800001600 } from '../migrations/1763800001600-issue-tag-values';
import { openTestDatabase, type TestDatabase } from './support/test-database';

/** Issues from before migration 1600 get their tag values from their stored events. */
describe('migration 1600: tag values of existing issues', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('counts the SDK tags, level, environment, release, user and user.email of each stored event', async () => {
    const { database } = db;
    const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [{ id: projectId }] = await database.query<{ id: string }>(
      `INSERT INTO projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [organizationId],
    );
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp', 'WEB-1', 'TypeError: x', 'app', 'error', 'node', now(), now(), 3) RETURNING id`,
      [projectId],
    );
    const events: Array<[string, Record<string, unknown>]> = [
      ['2026-01-01T00:00:00Z', { level: 'error', environment: 'prod', release: 'web@1', tags: [['browser', 'Chrome']], user: { id: '7', email: 'a@example.com' } }],
      ['2026-01-02T00:00:00Z', { level: 'error', tags: [['browser', 'Chrome'], ['browser', 'Firefox']], user: { ipAddress: '10.0.0.1' } }],
      ['2026-01-03T00:00:00Z', { level: 'warning', tags: {}, user: { username: '', email: 'b@example.com' } }],
    ];
    await database.execute(
      `INSERT INTO error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
       SELECT $1, $2, md5(random()::text), at, at, data FROM unnest($3::timestamptz[], $4::json[]) AS e (at, data)`,
      [projectId, issueId, events.map((e) => e[0]), events.map((e) => JSON.stringify(e[1]))],
    );

    const migration = new IssueTagValues1763800001600();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    const rows = await database.query<{ key: string; value: string; times_seen: string; first_seen: Date; last_seen: Date }>(
      `SELECT key, value, times_seen::text AS times_seen, first_seen, last_seen FROM issue_tag_values WHERE issue_id = $1 ORDER BY key, value`,
      [issueId],
    );
    expect(rows.map((row) => [row.key, row.value, Number(row.times_seen), new Date(row.first_seen).toISOString().slice(0, 10), new Date(row.last_seen).toISOString().slice(0, 10)])).toEqual([
      ['browser', 'Chrome', 2, '2026-01-01', '2026-01-02'],
      ['browser', 'Firefox', 1, '2026-01-02', '2026-01-02'],
      ['environment', 'prod', 1, '2026-01-01', '2026-01-01'],
      ['level', 'error', 2, '2026-01-01', '2026-01-02'],
      ['level', 'warning', 1, '2026-01-03', '2026-01-03'],
      ['release', 'web@1', 1, '2026-01-01', '2026-01-01'],
      ['user', 'email:b@example.com', 1, '2026-01-03', '2026-01-03'],
      ['user', 'id:7', 1, '2026-01-01', '2026-01-01'],
      ['user', 'ip:10.0.0.1', 1, '2026-01-02', '2026-01-02'],
      ['user.email', 'a@example.com', 1, '2026-01-01', '2026-01-01'],
      ['user.email', 'b@example.com', 1, '2026-01-03', '2026-01-03'],
    ]);
  });
});
