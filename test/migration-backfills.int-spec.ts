import { randomUUID } from 'node:crypto';
import { IssueIgnoreCount1763800001300 } from '../migrations/1763800001300-issue-ignore-count';
import { IssueReleasesAndStats1763800001500 } from '../migrations/1763800001500-issue-releases-and-stats';
import { InstallationEventTypes, installationStream } from '@faultline/integrations';
import { IssueTagValues1763800001600 } from '../migrations/1763800001600-issue-tag-values';
import { InstallationScopes1763800001800 } from '../migrations/1763800001800-installation-scopes';
import { ContextSchemas1763800003000 } from '../migrations/1763800003000-context-schemas';
import { OutcomesByCategory1764200000000 } from '../migrations/1764200000000-outcomes-by-category';
import { SingleSignOn1764700000000 } from '../migrations/1764700000000-single-sign-on';
import { PartitionedErrorEvents1765800000000 } from '../migrations/1765800000000-partitioned-error-events';
import { PartitionedClaimsAndIssueStats1765900000000 } from '../migrations/1765900000000-partitioned-claims-and-issue-stats';
import { PartitionedIngestStats1765910000000 } from '../migrations/1765910000000-partitioned-ingest-stats';
import { PartitionedAlertMinutes1765920000000 } from '../migrations/1765920000000-partitioned-alert-minutes';
import { IssueFirstException1765930000000 } from '../migrations/1765930000000-issue-first-exception';
import { MIGRATIONS } from '../migrations';
import { insertProject, rerunMigration } from './support/migration-test';
import { openTestDatabase, type TestDatabase } from './support/test-database';

/** Migrations that derive new columns and read models from what was stored before them. */
describe('migration backfills', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  /** Issues ignored before migration 1300 get the event count their last ignore would have noted. */
  it('1300 notes, for each ignored issue, its count less the events stored since its last ignore', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const issue = async (shortId: string, status: string, timesSeen: number) => {
      const [{ id }] = await database.query<{ id: string }>(
        `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen, times_seen, user_count)
         VALUES ($1, $2, $2, 'TypeError: x', 'app', 'error', 'node', $3, 'ongoing', now(), now(), $4, 3) RETURNING id`,
        [projectId, shortId, status, timesSeen],
      );
      return String(id);
    };
    const storeEvents = (issueId: string, receivedAt: string[]) =>
      database.execute(
        `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
         SELECT $1, $2, md5(random()::text), at, at, '{}' FROM unnest($3::timestamptz[]) AS at`,
        [projectId, issueId, receivedAt],
      );
    const ignoredAt = async (issueId: string, version: number, at: string) =>
      database.execute(
        `INSERT INTO event_store.events (stream_id, stream_type, version, event_id, event_type, data) VALUES ($1, 'issue', $2, $3, 'issues.IssueIgnored', $4)`,
        [`issue-${issueId}`, version, randomUUID(), JSON.stringify({ issueId, at, untilCount: 10 })],
      );

    const reignored = await issue('WEB-1', 'ignored', 7);
    await storeEvents(reignored, ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z']);
    await ignoredAt(reignored, 1, '2026-01-01T12:00:00Z');
    await ignoredAt(reignored, 2, '2026-01-02T12:00:00Z');
    const unresolved = await issue('WEB-2', 'unresolved', 3);

    await rerunMigration(db, new IssueIgnoreCount1763800001300());

    const rows = await database.query<{ id: string; times_seen_at_ignore: string | null; user_count_at_ignore: number | null }>(
      `SELECT id, times_seen_at_ignore, user_count_at_ignore FROM issues.issues WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[reignored, unresolved]],
    );
    // 7 seen, 2 of the stored events arrived after the last ignore; 3 users, as no ignore had a user condition.
    expect(rows.map((row) => [String(row.id), row.times_seen_at_ignore === null ? null : Number(row.times_seen_at_ignore), row.user_count_at_ignore])).toEqual([
      [reignored, 5, 3],
      [unresolved, null, null],
    ]);
  });

  /** Issues from before migration 1500 get their releases and graph counts from their stored events. */
  it('1500 takes the first and newest releases named and counts the events per hour and per day (UTC)', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const issue = async (shortId: string) => {
      const [{ id }] = await database.query<{ id: string }>(
        `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
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
      `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
       SELECT $1, issue_id, md5(random()::text), at, at, CASE WHEN release IS NULL THEN '{}' ELSE json_build_object('release', release) END
       FROM unnest($2::bigint[], $3::timestamptz[], $4::text[]) AS e (issue_id, at, release)`,
      [projectId, events.map((e) => e[0]), events.map((e) => e[1]), events.map((e) => e[2])],
    );

    await rerunMigration(db, new IssueReleasesAndStats1763800001500(), { timeZone: 'America/New_York' });

    const releases = await database.query<{ id: string; first_release: string | null; last_release: string | null }>(
      `SELECT id::text AS id, first_release, last_release FROM issues.issues WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[released, unreleased]],
    );
    expect(releases).toEqual([
      { id: released, first_release: 'web@1.0.0', last_release: 'web@1.1.0' },
      { id: unreleased, first_release: null, last_release: null },
    ]);
    const stats = await database.query<{ resolution: string; bucket: Date; count: string }>(
      `SELECT resolution, bucket, count::text AS count FROM issues.issue_stats WHERE issue_id = $1 ORDER BY resolution, bucket`,
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

  /** Issues from before migration 1600 get their tag values from their stored events. */
  it('1600 counts the SDK tags, level, environment, release and user of each stored event', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp', 'WEB-1', 'TypeError: x', 'app', 'error', 'node', now(), now(), 3) RETURNING id`,
      [projectId],
    );
    const events: Array<[string, Record<string, unknown>]> = [
      [
        '2026-01-01T00:00:00Z',
        { level: 'error', environment: 'prod', release: 'web@1', tags: [['browser', 'Chrome']], user: { id: '7', email: 'a@example.com' } },
      ],
      [
        '2026-01-02T00:00:00Z',
        {
          level: 'error',
          tags: [
            ['browser', 'Chrome'],
            ['browser', 'Firefox'],
          ],
          user: { ipAddress: '10.0.0.1' },
        },
      ],
      ['2026-01-03T00:00:00Z', { level: 'warning', tags: {}, user: { username: '', email: 'b@example.com' } }],
    ];
    await database.execute(
      `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
       SELECT $1, $2, md5(random()::text), at, at, data FROM unnest($3::timestamptz[], $4::json[]) AS e (at, data)`,
      [projectId, issueId, events.map((e) => e[0]), events.map((e) => JSON.stringify(e[1]))],
    );

    await rerunMigration(db, new IssueTagValues1763800001600());

    const rows = await database.query<{ key: string; value: string; times_seen: string; first_seen: Date; last_seen: Date }>(
      `SELECT key, value, times_seen::text AS times_seen, first_seen, last_seen FROM issues.issue_tag_values WHERE issue_id = $1 ORDER BY key, value`,
      [issueId],
    );
    expect(
      rows.map((row) => [
        row.key,
        row.value,
        Number(row.times_seen),
        new Date(row.first_seen).toISOString().slice(0, 10),
        new Date(row.last_seen).toISOString().slice(0, 10),
      ]),
    ).toEqual([
      ['browser', 'Chrome', 2, '2026-01-01', '2026-01-02'],
      ['browser', 'Firefox', 1, '2026-01-02', '2026-01-02'],
      ['environment', 'prod', 1, '2026-01-01', '2026-01-01'],
      ['level', 'error', 2, '2026-01-01', '2026-01-02'],
      ['level', 'warning', 1, '2026-01-03', '2026-01-03'],
      ['release', 'web@1', 1, '2026-01-01', '2026-01-01'],
      ['user', 'email:b@example.com', 1, '2026-01-03', '2026-01-03'],
      ['user', 'id:7', 1, '2026-01-01', '2026-01-01'],
      ['user', 'ip:10.0.0.1', 1, '2026-01-02', '2026-01-02'],
    ]);
  });

  /** Installations from before migration 1800 keep the scopes their app has, as their tokens were issued. */
  it('1800 records, on each live installation and its stream, the scopes of its app', async () => {
    const { database } = db;
    const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ($1, 'Acme') RETURNING id`, [
      `acme-${randomUUID()}`,
    ]);
    const [{ id: appId }] = await database.query<{ id: string }>(
      `INSERT INTO integrations.sentry_apps (uuid, slug, name, owner_organization_id, is_internal, status, scopes, client_id, client_secret)
       VALUES ($1, $2, 'Bridge', $3, false, 'published', '{project:read,event:write}', $2, 'secret') RETURNING id`,
      [randomUUID(), `bridge-${randomUUID()}`, organizationId],
    );
    const install = async (status: 'installed' | 'deleted') => {
      const uuid = randomUUID();
      const created = {
        installationUuid: uuid,
        appId: String(appId),
        organizationId: String(organizationId),
        status: 'installed',
        grantCodeHash: 'h',
        grantExpiresAt: '2026-01-01T00:10:00.000Z',
        actor: { type: 'user', id: '1', name: 'Jane' },
        at: '2026-01-01T00:00:00.000Z',
      };
      await database.execute(
        `INSERT INTO event_store.events (stream_id, stream_type, version, event_id, event_type, data) VALUES ($1, 'sentry_app_installation', 1, $2, $3, $4)`,
        [installationStream(uuid), randomUUID(), InstallationEventTypes.InstallationCreated, JSON.stringify(created)],
      );
      await database.execute(
        `INSERT INTO integrations.sentry_app_installations (uuid, app_id, organization_id, status, version, date_created, date_updated) VALUES ($1, $2, $3, $4, 1, $5, $5)`,
        [uuid, appId, organizationId, status, created.at],
      );
      return uuid;
    };
    const live = await install('installed');
    const deleted = await install('deleted');

    await rerunMigration(db, new InstallationScopes1763800001800());

    const rows = await database.query<{ uuid: string; scopes: string[]; version: number; date_updated: Date }>(
      `SELECT uuid, scopes, version, date_updated FROM integrations.sentry_app_installations WHERE uuid = ANY($1::uuid[]) ORDER BY version DESC`,
      [[live, deleted]],
    );
    expect(rows.map((row) => [row.uuid, row.scopes, row.version])).toEqual([
      [live, ['event:write', 'project:read'], 2],
      [deleted, [], 1],
    ]);
    const events = await database.query<{ stream_id: string; version: number; event_type: string; data: Record<string, unknown> }>(
      `SELECT stream_id, version, event_type, data FROM event_store.events WHERE stream_id = ANY($1::text[]) AND version > 1`,
      [[installationStream(live), installationStream(deleted)]],
    );
    expect(events).toEqual([
      {
        stream_id: installationStream(live),
        version: 2,
        event_type: InstallationEventTypes.InstallationScopesChanged,
        data: { installationUuid: live, scopes: ['event:write', 'project:read'], at: rows[0].date_updated.toISOString() },
      },
    ]);
  });

  /**
   * An installation from before migration 3000 keeps every row as its tables move into their
   * contexts' schemas: identity sequences go on from where they were, foreign keys still hold
   * across schemas, and the views and trigger functions read the moved tables.
   */
  it("3000 moves each context's tables into its schema with every row, sequence, key and trigger", async () => {
    const { database } = db;
    const migration = new ContextSchemas1763800003000();
    // A later migration moved the auth provider on into identity: it is undone first and redone after.
    const singleSignOn = new SingleSignOn1764700000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await singleSignOn.down(runner);
      await migration.down(runner);
      const [{ id: organizationId }] = await runner.query(`INSERT INTO organizations (slug, name) VALUES ('moved', 'Moved') RETURNING id`);
      const [{ id: userId }] = await runner.query(`INSERT INTO users (email) VALUES ('grace@example.com') RETURNING id`);
      await runner.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [organizationId, userId]);
      const [{ id: projectId }] = await runner.query(`INSERT INTO projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`, [
        organizationId,
      ]);
      const [{ id: issueId }] = await runner.query(
        `INSERT INTO issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen)
         VALUES ($1, 'f', 'WEB-1', 'TypeError', 'error', 'node', now(), now()) RETURNING id`,
        [projectId],
      );
      await runner.query(`INSERT INTO tag_values (project_id, key, value, times_seen, first_seen, last_seen) VALUES ($1, 'release', '1.0', 3, now(), now())`, [
        projectId,
      ]);
      await runner.query(
        `INSERT INTO events (stream_id, stream_type, version, event_id, event_type, data) VALUES ($1, 'issue', 1, $2, 'issues.IssueCreated', '{}')`,
        [`issue-${issueId}`, randomUUID()],
      );
      await runner.query(
        `INSERT INTO auth_providers (organization_id, provider, idp_entity_id, sso_url, x509cert, scim_enabled, scim_token_hash, scim_token_last_characters)
         VALUES ($1, 'saml2', 'https://idp.example.com', 'https://idp.example.com/sso', 'pem', true, 'token-hash', 'abcd')`,
        [organizationId],
      );
      await migration.up(runner);
      await singleSignOn.up(runner);
    } finally {
      await runner.release();
    }

    const counts = await database.query<{ members: string; scim_users: number; projects: number; issues: number; tags: number; events: number }>(
      `SELECT (SELECT members FROM identity.scim_member_counts WHERE organization_id = $1) AS members,
              (SELECT count(*)::int FROM identity.scim_users WHERE organization_id = $1 AND user_name = 'grace@example.com') AS scim_users,
              (SELECT count(*)::int FROM projects.project_directory WHERE organization_id = $1) AS projects,
              (SELECT count(*)::int FROM issues.issue_directory i JOIN projects.projects p ON p.id = i.project_id WHERE p.organization_id = $1) AS issues,
              (SELECT count(*)::int FROM ingest.project_tag_values t JOIN projects.projects p ON p.id = t.project_id WHERE p.organization_id = $1) AS tags,
              (SELECT count(*)::int FROM event_store.stream_events e JOIN issues.issues i ON e.stream_id = 'issue-' || i.id
                 JOIN projects.projects p ON p.id = i.project_id WHERE p.organization_id = $1) AS events`,
      [(await database.query<{ id: string }>(`SELECT id FROM identity.organizations WHERE slug = 'moved'`))[0].id],
    );
    expect(counts.map((row) => ({ ...row, members: Number(row.members) }))).toEqual([
      { members: 1, scim_users: 1, projects: 1, issues: 1, tags: 1, events: 1 },
    ]);
    // 1764700000000: the provider, SCIM token and all, now identity's, with the SSO defaults.
    expect(
      await database.query(
        `SELECT p.scim_token_hash, p.default_role, p.attribute_mapping FROM identity.auth_providers p JOIN identity.organizations o ON o.id = p.organization_id WHERE o.slug = 'moved'`,
      ),
    ).toEqual([{ scim_token_hash: 'token-hash', default_role: 'member', attribute_mapping: {} }]);

    const [{ id: newer }] = await database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('after', 'After') RETURNING id`);
    const [{ id: moved }] = await database.query<{ id: string }>(`SELECT id FROM identity.organizations WHERE slug = 'moved'`);
    expect(BigInt(newer)).toBeGreaterThan(BigInt(moved));
    await expect(database.execute(`INSERT INTO projects.projects (organization_id, slug, name) VALUES (-1, 'orphan', 'Orphan')`)).rejects.toThrow(
      /foreign key/,
    );
    await expect(database.execute(`UPDATE event_store.events SET event_type = 'x'`)).rejects.toThrow(/append-only/);
    await database.execute(`DELETE FROM identity.organizations WHERE id = $1`, [moved]);
    expect(
      await database.query(`SELECT 1 FROM issues.issues i JOIN projects.projects p ON p.id = i.project_id WHERE p.slug = 'web' AND p.organization_id = $1`, [
        moved,
      ]),
    ).toEqual([]);
  });

  /** Admission outcomes waiting to be folded when 1764200000000 runs are translated to Sentry's outcomes. */
  it('1764200000000 translates waiting admission outcomes: received is left to the processor, rejected becomes rate_limited or invalid', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const migration = new OutcomesByCategory1764200000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await database.execute(
        `INSERT INTO ingest.ingest_outcomes (project_id, outcome, category, quantity, reason)
         VALUES ($1, 'received', 'error', 3, NULL), ($1, 'received', 'client_report', 1, NULL), ($1, 'rejected', 'error', 2, 'key_quota'),
                ($1, 'rejected', 'user_report', 1, 'invalid'), ($1, 'rejected', 'user_report', 1, 'duplicate_report')`,
        [projectId],
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = await database.query<{ outcome: string; category: string; reason: string; quantity: string; times_seen: number; matches: boolean }>(
      `SELECT o.outcome, o.category, o.reason, o.quantity::text, o.times_seen, o.organization_id = p.organization_id AS matches
       FROM ingest.ingest_outcomes o JOIN projects.projects p ON p.id = o.project_id WHERE o.project_id = $1 ORDER BY o.id`,
      [projectId],
    );
    expect(rows).toEqual([
      { outcome: 'rate_limited', category: 'error', reason: 'key_quota', quantity: '2', times_seen: 1, matches: true },
      { outcome: 'invalid', category: 'feedback', reason: 'payload', quantity: '1', times_seen: 1, matches: true },
      { outcome: 'invalid', category: 'feedback', reason: 'duplicate', quantity: '1', times_seen: 1, matches: true },
    ]);
  });

  /** Events stored before 1765800000000 move into a partition per day received (UTC), keeping their ids; their ids are claimed. */
  it('1765800000000 moves stored events into a partition per day received, keeps their ids and claims their event ids', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp', 'WEB-P', 'TypeError: x', 'app', 'error', 'node', '2026-01-01T00:00:00Z', '2026-01-02T23:59:59Z', 3) RETURNING id`,
      [projectId],
    );
    const migration = new PartitionedErrorEvents1765800000000();
    // The migrations after it are undone around it, as on a database from before it.
    const later = MIGRATIONS.slice(MIGRATIONS.indexOf(PartitionedErrorEvents1765800000000) + 1).map((m) => new m());
    const runner = db.dataSource.createQueryRunner();
    try {
      for (const undone of [...later].reverse()) await undone.down(runner);
      await migration.down(runner);
      // Days of UTC whatever the session's time zone: 23:30 in New York on the 1st is the 2nd in UTC.
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await database.execute(
        `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
         SELECT $1, $2, 'e' || n, at, at, json_build_object('n', n) FROM unnest($3::timestamptz[]) WITH ORDINALITY AS s (at, n)`,
        [projectId, issueId, ['2026-01-01T00:00:00Z', '2026-01-01T23:59:59Z', '2026-01-02T04:30:00Z']],
      );
      await migration.up(runner);
      await runner.query('RESET TIME ZONE');
      for (const redone of later) await redone.up(runner);
    } finally {
      await runner.release();
    }
    const moved = await database.query<{ id: string }>(`SELECT id::text FROM issues.error_events WHERE issue_id = $1 ORDER BY id`, [issueId]);
    const stored = await database.query<{ partition: string; event_id: string; data: { n: number } }>(
      `SELECT tableoid::regclass::text AS partition, event_id, data FROM issues.error_events WHERE issue_id = $1 ORDER BY id`,
      [issueId],
    );
    expect(stored).toEqual([
      { partition: 'issues.error_events_p20260101', event_id: 'e1', data: { n: 1 } },
      { partition: 'issues.error_events_p20260101', event_id: 'e2', data: { n: 2 } },
      { partition: 'issues.error_events_p20260102', event_id: 'e3', data: { n: 3 } },
    ]);
    const claims = await database.query<{ event_id: string; received_at: Date; id: string }>(
      `SELECT event_id, received_at, id::text FROM issues.event_ids WHERE project_id = $1 ORDER BY event_id`,
      [projectId],
    );
    expect(claims.map((claim) => [claim.event_id, claim.received_at.toISOString(), claim.id])).toEqual([
      ['e1', '2026-01-01T00:00:00.000Z', moved[0].id],
      ['e2', '2026-01-01T23:59:59.000Z', moved[1].id],
      ['e3', '2026-01-02T04:30:00.000Z', moved[2].id],
    ]);
    // New events take ids after the moved ones; a day no partition holds goes to the default partition.
    const [added] = await database.query<{ id: string; partition: string }>(
      `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
       VALUES ($1, $2, 'e4', '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z', '{}') RETURNING id::text, tableoid::regclass::text AS partition`,
      [projectId, issueId],
    );
    expect(BigInt(added.id)).toBeGreaterThan(BigInt(moved[moved.length - 1].id));
    expect(added.partition).toBe('issues.error_events_default');
  });

  /** 1765800000000's days are 24 hours whatever the session's time zone, also across a change of clocks (New York, 2026-11-01). */
  it('1765800000000 makes days of 24 hours in a session whose clocks change that day', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp-dst', 'WEB-D', 'TypeError: x', 'app', 'error', 'node', '2026-11-01T12:00:00Z', '2026-11-02T12:00:00Z', 2) RETURNING id`,
      [projectId],
    );
    const migration = new PartitionedErrorEvents1765800000000();
    const later = MIGRATIONS.slice(MIGRATIONS.indexOf(PartitionedErrorEvents1765800000000) + 1).map((m) => new m());
    const runner = db.dataSource.createQueryRunner();
    try {
      for (const undone of [...later].reverse()) await undone.down(runner);
      await migration.down(runner);
      await database.execute(
        `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
         SELECT $1, $2, 'dst' || n, at, at, '{}' FROM unnest($3::timestamptz[]) WITH ORDINALITY AS s (at, n)`,
        [projectId, issueId, ['2026-11-01T12:00:00Z', '2026-11-02T00:30:00Z']],
      );
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await migration.up(runner);
      await runner.query('RESET TIME ZONE');
      for (const redone of later) await redone.up(runner);
    } finally {
      await runner.release();
    }
    const stored = await database.query<{ partition: string }>(
      `SELECT tableoid::regclass::text AS partition FROM issues.error_events WHERE issue_id = $1 ORDER BY occurred_at`,
      [issueId],
    );
    expect(stored.map((row) => row.partition)).toEqual(['issues.error_events_p20261101', 'issues.error_events_p20261102']);
  });

  /** Claims and graph counts stored before 1765900000000 move into a partition per day (UTC), the counts by resolution first. */
  it('1765900000000 moves claims into a partition per day received and graph counts into one per resolution and day', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp', 'WEB-C', 'TypeError: x', 'app', 'error', 'node', '2026-01-01T00:00:00Z', '2026-01-02T23:59:59Z', 2) RETURNING id`,
      [projectId],
    );
    const migration = new PartitionedClaimsAndIssueStats1765900000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await database.execute(
        `INSERT INTO issues.event_ids (project_id, event_id, received_at, id) VALUES ($1, 'a', '2026-01-01T23:30:00Z', 1), ($1, 'b', '2026-01-02T04:30:00Z', 2)`,
        [projectId],
      );
      await database.execute(
        `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) VALUES ($1, '1h', '2026-01-01T23:00:00Z', 2), ($1, '1d', '2026-01-01T00:00:00Z', 3)`,
        [issueId],
      );
      // Days of UTC whatever the session's time zone: 23:30 in UTC on the 1st is the 1st, not New York's.
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await migration.up(runner);
      await runner.query('RESET TIME ZONE');
    } finally {
      await runner.release();
    }
    const claims = await database.query<{ event_id: string; claimed_on: Date; partition: string }>(
      `SELECT event_id, claimed_on, tableoid::regclass::text AS partition FROM issues.event_ids WHERE project_id = $1 ORDER BY event_id`,
      [projectId],
    );
    expect(claims.map((claim) => [claim.event_id, claim.claimed_on.toISOString(), claim.partition])).toEqual([
      ['a', '2026-01-01T00:00:00.000Z', 'issues.event_ids_p20260101'],
      ['b', '2026-01-02T00:00:00.000Z', 'issues.event_ids_p20260102'],
    ]);
    const stats = await database.query<{ resolution: string; count: string; partition: string }>(
      `SELECT resolution, count::text AS count, tableoid::regclass::text AS partition FROM issues.issue_stats WHERE issue_id = $1 ORDER BY resolution`,
      [issueId],
    );
    expect(stats).toEqual([
      { resolution: '1d', count: '3', partition: 'issues.issue_stats_daily_p20260101' },
      { resolution: '1h', count: '2', partition: 'issues.issue_stats_hourly_p20260101' },
    ]);
  });

  /** Stats rollups counted before 1765910000000 move into a partition per resolution and day of their bucket (UTC), and back on the way down. */
  it('1765910000000 moves the stats rollups into a partition per resolution and day, and back', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ organization_id: organizationId }] = await database.query<{ organization_id: string }>(
      `SELECT organization_id::text FROM projects.projects WHERE id = $1`,
      [projectId],
    );
    const stats = () =>
      database.query<{ partition: string; resolution: string; bucket: Date; count: string }>(
        `SELECT tableoid::regclass::text AS partition, resolution, bucket, count::text FROM ingest.project_stats WHERE project_id = $1 ORDER BY resolution, bucket`,
        [projectId],
      );
    const outcomes = () =>
      database.query<{ partition: string; bucket: Date; quantity: string }>(
        `SELECT tableoid::regclass::text AS partition, bucket, quantity::text FROM ingest.outcome_stats WHERE project_id = $1 ORDER BY resolution, bucket`,
        [projectId],
      );
    const migration = new PartitionedIngestStats1765910000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      // Days of UTC whatever the session's time zone: 23:30 in New York on the 1st is the 2nd in UTC.
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await database.execute(
        `INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count)
         VALUES ($1, 'received', '10s', '2026-01-02T04:30:10Z', 1), ($1, 'received', '1h', '2026-03-08T04:00:00Z', 2), ($1, 'received', '1d', '2026-01-01T00:00:00Z', 3)`,
        [projectId],
      );
      await database.execute(
        `INSERT INTO ingest.outcome_stats (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
         VALUES ($1, '1h', '2026-01-01T23:00:00Z', $2, 'error', 'accepted', '', 4, 1), ($1, '1d', '2026-01-01T00:00:00Z', $2, 'error', 'accepted', '', 4, 1)`,
        [organizationId, projectId],
      );
      await migration.up(runner);
      await runner.query('RESET TIME ZONE');
      expect((await stats()).map(({ partition, bucket, count }) => [partition, bucket.toISOString(), count])).toEqual([
        ['ingest.project_stats_10s_p20260102', '2026-01-02T04:30:10.000Z', '1'],
        ['ingest.project_stats_1d_p20260101', '2026-01-01T00:00:00.000Z', '3'],
        ['ingest.project_stats_1h_p20260308', '2026-03-08T04:00:00.000Z', '2'],
      ]);
      expect((await outcomes()).map(({ partition, quantity }) => [partition, quantity])).toEqual([
        ['ingest.outcome_stats_p20260101', '4'],
        ['ingest.outcome_stats_p20260101', '4'],
      ]);
      // Each day is 24 hours, even in a session whose time zone changes its clocks (New York on 2026-03-08).
      const bounds = await database.query<{ bound: string }>(
        `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_catalog.pg_class c WHERE c.oid = 'ingest.project_stats_1h_p20260308'::regclass`,
      );
      expect(bounds[0].bound).toBe("FOR VALUES FROM ('2026-03-08 00:00:00+00') TO ('2026-03-09 00:00:00+00')");
      // The upsert adds to a moved row; a day no partition holds goes to the default partition.
      await database.execute(
        `INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count) VALUES ($1, 'received', '1h', '2026-03-08T04:00:00Z', 5), ($1, 'received', '1h', '2025-06-01T00:00:00Z', 1)
         ON CONFLICT (project_id, stat, resolution, bucket) DO UPDATE SET count = project_stats.count + EXCLUDED.count`,
        [projectId],
      );
      expect((await stats()).filter((row) => row.resolution === '1h').map(({ partition, count }) => [partition, count])).toEqual([
        ['ingest.project_stats_1h_default', '1'],
        ['ingest.project_stats_1h_p20260308', '7'],
      ]);

      await migration.down(runner);
      expect((await stats()).map(({ partition, count }) => [partition, count])).toEqual([
        ['ingest.project_stats', '1'],
        ['ingest.project_stats', '3'],
        ['ingest.project_stats', '1'],
        ['ingest.project_stats', '7'],
      ]);
      expect(await outcomes()).toHaveLength(2);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await stats()).toHaveLength(4);
  });

  /** Alert minutes counted before 1765920000000 move into a partition per day of their minute (UTC), and back on the way down. */
  it('1765920000000 moves the alert minutes into a partition per day, and back', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp', 'WEB-M', 'TypeError: x', 'app', 'error', 'node', '2026-01-01T00:00:00Z', '2026-01-02T23:59:59Z', 3) RETURNING id`,
      [projectId],
    );
    const minutes = () =>
      database.query<{ partition: string; bucket: Date; events: number }>(
        `SELECT tableoid::regclass::text AS partition, bucket, events FROM alerts.alert_issue_minutes WHERE issue_id = $1
         UNION ALL SELECT tableoid::regclass::text, bucket, NULL FROM alerts.alert_issue_minute_users WHERE issue_id = $1 ORDER BY 1, 2`,
        [issueId],
      );
    const migration = new PartitionedAlertMinutes1765920000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await runner.query(`SET TIME ZONE 'America/New_York'`);
      await database.execute(
        `INSERT INTO alerts.alert_issue_minutes (issue_id, bucket, project_id, events, environment, level)
         VALUES ($1, '2026-01-01T23:59:00Z', $2, 2, 'production', 'error'), ($1, '2026-01-02T04:30:00Z', $2, 3, '', '')`,
        [issueId, projectId],
      );
      await database.execute(
        `INSERT INTO alerts.alert_issue_minute_users (issue_id, bucket, user_tag, project_id, environment, level) VALUES ($1, '2026-01-02T04:30:00Z', 'id:1', $2, '', '')`,
        [issueId, projectId],
      );
      await migration.up(runner);
      await runner.query('RESET TIME ZONE');
      expect((await minutes()).map(({ partition, bucket, events }) => [partition, bucket.toISOString(), events])).toEqual([
        ['alerts.alert_issue_minute_users_p20260102', '2026-01-02T04:30:00.000Z', null],
        ['alerts.alert_issue_minutes_p20260101', '2026-01-01T23:59:00.000Z', 2],
        ['alerts.alert_issue_minutes_p20260102', '2026-01-02T04:30:00.000Z', 3],
      ]);
      await migration.down(runner);
      expect((await minutes()).map(({ partition, events }) => [partition, events])).toEqual([
        ['alerts.alert_issue_minute_users', null],
        ['alerts.alert_issue_minutes', 2],
        ['alerts.alert_issue_minutes', 3],
      ]);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await minutes()).toHaveLength(3);
  });
  /** Issues made before 1765930000000 take the main exception of their earliest stored event. */
  it('1765930000000 gives each issue the main exception of its earliest stored event', async () => {
    const { database } = db;
    const projectId = await insertProject(db);
    const [{ id: issueId }] = await database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'fp-first', 'WEB-F', 'TypeError: x', 'app', 'error', 'node', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', 2) RETURNING id::text`,
      [projectId],
    );
    await database.execute(
      `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data) VALUES
         ($1, $2, 'later', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', '{"exceptions": [{"type": "RangeError", "value": "later"}]}'),
         ($1, $2, 'first', '2026-01-01T00:00:00Z', '2026-01-01T00:00:05Z', '{"exceptions": [{"type": "Inner"}, {"type": "TypeError", "value": "x is undefined"}]}')`,
      [projectId, issueId],
    );
    await rerunMigration(db, new IssueFirstException1765930000000());
    const [issue] = await database.query<{ first_exception: unknown }>(`SELECT first_exception FROM issues.issues WHERE id = $1`, [issueId]);
    expect(issue.first_exception).toEqual({ type: 'TypeError', value: 'x is undefined' });
  });
});
