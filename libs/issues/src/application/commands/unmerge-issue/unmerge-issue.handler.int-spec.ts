import { createHash, randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { FixedClock } from '@faultline/kernel';
import { Database, withStatementTimeout } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../../../../../../test/support/test-app';
import { type IngestedEvent, IssueIngestion } from '../../../contracts/issue-ingestion';
import { IssueEventMovesRepository } from '../../../infrastructure/issue-event-moves.repository';
import { IssueEventMovesWorker } from '../../../infrastructure/issue-event-moves.worker';
import { IssueMergesRepository } from '../../../infrastructure/issue-merges.repository';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { DeleteIssueCommand } from '../delete-issue/delete-issue.command';
import { type MergedIssues, MergeIssuesCommand } from '../merge-issues/merge-issues.command';
import { type UnmergedIssue, UnmergeIssueCommand } from './unmerge-issue.command';

const ACTOR = { type: 'user' as const, id: '1', name: 'Admin' };
/** Each statement of a merge, unmerge or delete must finish within this, however many events move. */
const SMALL_STATEMENT_TIMEOUT_MS = 1000;
const MANY = 40_000;

/** Unmerging, and merging, unmerging and deleting in bounded steps, against PostgreSQL. */
describe('UnmergeIssueHandler and the moves of events', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;
  const clock = new FixedClock(new Date('2026-03-01T12:00:00Z'));

  const md5 = (value: string) => createHash('md5').update(value).digest('hex');
  const event = (fingerprint: string, occurredAt: string, user?: string, release?: string): IngestedEvent => {
    const eventId = randomUUID().replace(/-/g, '');
    return {
      projectId,
      projectSlug: BOOTSTRAP.project,
      organizationId,
      eventId,
      fingerprintHash: fingerprint,
      title: `Error ${fingerprint}`,
      culprit: `app/${fingerprint}.js`,
      level: 'error',
      platform: 'node',
      occurredAt,
      receivedAt: occurredAt,
      userHash: user ? md5(user) : undefined,
      release,
      tags: [['level', 'error'], ...(user ? [['user', `id:${user}`] as const] : []), ...(release ? [['release', release] as const] : [])],
      data: { eventId, title: `Error ${fingerprint}`, culprit: `app/${fingerprint}.js`, level: 'error', platform: 'node', release },
    };
  };
  const record = (...events: IngestedEvent[]) => database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  const commands = () => api.app.get(CommandBus);
  const merge = (...ids: string[]) => commands().execute<MergeIssuesCommand, MergedIssues>(new MergeIssuesCommand(organizationId, ids, ACTOR));
  const unmerge = (issueId: string, ...hashes: string[]) =>
    commands().execute<UnmergeIssueCommand, UnmergedIssue>(new UnmergeIssueCommand(organizationId, issueId, hashes, ACTOR));
  const counts = async (issueId: string) =>
    (
      await database.query<{ seen: string; users: number; events: string; hour: string; day: string; tag: string; first: string; last: string }>(
        `SELECT i.times_seen::text AS seen, i.user_count AS users,
                (SELECT count(*) FROM issues.error_events WHERE issue_id = i.id)::text AS events,
                (SELECT COALESCE(sum(count), 0) FROM issues.issue_stats WHERE issue_id = i.id AND resolution = '1h')::text AS hour,
                (SELECT COALESCE(sum(count), 0) FROM issues.issue_stats WHERE issue_id = i.id AND resolution = '1d')::text AS day,
                (SELECT times_seen FROM issues.issue_tag_values WHERE issue_id = i.id AND key = 'level' AND value = 'error')::text AS tag,
                to_char(i.first_seen AT TIME ZONE 'UTC', 'HH24:MI') AS first, to_char(i.last_seen AT TIME ZONE 'UTC', 'HH24:MI') AS last
         FROM issues.issues i WHERE i.id = $1`,
        [issueId],
      )
    )[0];
  const hashesOf = async (issueId: string) =>
    (await database.query<{ hash: string }>(`SELECT hash FROM issues.issue_hashes WHERE issue_id = $1 ORDER BY hash`, [issueId])).map((row) => row.hash);
  const users = async (issueId: string) =>
    (await database.query<{ user_hash: string }>(`SELECT user_hash FROM issues.issue_users WHERE issue_id = $1 ORDER BY user_hash`, [issueId])).map(
      (row) => row.user_hash,
    );

  /** Stores `count` events of a fingerprint into its issue in SQL, counted as ingestion counts them. */
  async function bulk(issueId: string, fingerprint: string, count: number, start: string): Promise<void> {
    await database.execute(
      `INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data, tags, fingerprint_hash, user_hash)
       SELECT $1::bigint, $2::bigint, md5($3 || g), $5::timestamptz + g * interval '1 second', $5::timestamptz + g * interval '1 second',
              json_build_object('title', 'Bulk'), ARRAY['level=error', 'user=id:' || (g % 50)], $3, md5((g % 50)::text)
       FROM generate_series(1, $4::int) AS g`,
      [projectId, issueId, fingerprint, count, start],
    );
    await database.execute(
      `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count)
       SELECT $1::bigint, r.resolution, date_trunc(r.unit, e.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*)
       FROM issues.error_events e, (VALUES ('1h', 'hour'), ('1d', 'day')) AS r (resolution, unit)
       WHERE e.issue_id = $1::bigint AND e.fingerprint_hash = $2 AND e.data->>'title' = 'Bulk' GROUP BY 1, 2, 3
       ON CONFLICT (issue_id, resolution, bucket) DO UPDATE SET count = issue_stats.count + EXCLUDED.count`,
      [issueId, fingerprint],
    );
    await database.execute(
      `INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
       SELECT $1::bigint, split_part(t, '=', 1), substr(t, strpos(t, '=') + 1), count(*), min(e.occurred_at), max(e.occurred_at)
       FROM issues.error_events e CROSS JOIN LATERAL unnest(e.tags) AS t WHERE e.issue_id = $1::bigint AND e.fingerprint_hash = $2 AND e.data->>'title' = 'Bulk'
       GROUP BY 1, 2, 3
       ON CONFLICT (issue_id, key, value) DO UPDATE SET times_seen = issue_tag_values.times_seen + EXCLUDED.times_seen`,
      [issueId, fingerprint],
    );
    await database.execute(
      `INSERT INTO issues.issue_users (issue_id, user_hash) SELECT $1::bigint, md5(g::text) FROM generate_series(0, 49) AS g ON CONFLICT DO NOTHING`,
      [issueId],
    );
    await database.execute(
      `UPDATE issues.issues SET times_seen = times_seen + $2, user_count = (SELECT count(*) FROM issues.issue_users WHERE issue_id = $1::bigint),
              last_seen = GREATEST(last_seen, $3::timestamptz + $2 * interval '1 second')
       WHERE id = $1::bigint`,
      [issueId, count, start],
    );
  }

  beforeAll(async () => {
    api = await startTestApp({}, { clock });
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('moves the hashes’ events, counts, graphs, tags and users to one new issue, records both sides, and later events follow the hashes', async () => {
    const [a] = await record(event('u-a', '2026-01-01T10:00:00Z', 'ann'), event('u-a', '2026-01-01T11:00:00Z', 'bob', 'web@1'));
    const [b] = await record(event('u-b', '2026-01-01T09:00:00Z', 'bob', 'web@2'), event('u-b', '2026-01-01T12:00:00Z', 'cy'));
    const [c] = await record(event('u-c', '2026-01-01T10:30:00Z'));
    await merge(a.issueId, b.issueId, c.issueId);
    const primary = (await database.query<{ issue_id: string }>(`SELECT issue_id::text FROM issues.issue_hashes WHERE hash = 'u-a'`))[0].issue_id;
    expect(await counts(primary)).toMatchObject({ seen: '5', users: 3, first: '09:00', last: '12:00' });

    const unmerged = await unmerge(primary, 'u-b', 'u-c', 'u-b');
    expect(unmerged.shortId).toMatch(/^WEB-\d+$/);
    expect(await counts(unmerged.issueId)).toEqual({ seen: '3', users: 2, events: '3', hour: '3', day: '3', tag: '3', first: '09:00', last: '12:00' });
    expect(await counts(primary)).toEqual({ seen: '2', users: 2, events: '2', hour: '2', day: '2', tag: '2', first: '10:00', last: '11:00' });
    expect(await users(unmerged.issueId)).toEqual([md5('bob'), md5('cy')].sort());
    expect(await users(primary)).toEqual([md5('ann'), md5('bob')].sort());
    expect(await hashesOf(unmerged.issueId)).toEqual(['u-b', 'u-c']);
    expect(await hashesOf(primary)).toEqual(['u-a']);
    const [made] = await database.query<{ title: string; last_release: string | null; first_release: string | null }>(
      `SELECT title, first_release, last_release FROM issues.issues WHERE id = $1`,
      [unmerged.issueId],
    );
    expect(made).toEqual({ title: 'Error u-b', first_release: 'web@2', last_release: 'web@2' });

    const history = async (id: string) => (await api.app.get(IssueRepository).history(database, id)).map((recorded) => [recorded.type, recorded.data]);
    expect((await history(primary)).at(-1)).toEqual([
      'issues.IssueUnmerged',
      expect.objectContaining({ hashes: ['u-b', 'u-c'], destination: { issueId: unmerged.issueId, shortId: unmerged.shortId } }),
    ]);
    expect((await history(unmerged.issueId)).map(([type]) => type)).toEqual(['issues.IssueCreated', 'issues.IssueUnmergedFrom']);

    const later = await record(event('u-b', '2026-01-01T13:00:00Z', 'dee'), event('u-a', '2026-01-01T13:01:00Z'));
    expect(later.map((recorded) => [recorded.issueId, recorded.isNewIssue])).toEqual([
      [unmerged.issueId, false],
      [primary, false],
    ]);
    expect(await counts(unmerged.issueId)).toMatchObject({ seen: '4', users: 3, events: '4' });
    expect(await database.query(`SELECT 1 FROM issues.issue_event_moves`)).toEqual([]);
  });

  it('refuses every hash of the issue, an unknown hash and another issue’s hash, changing nothing', async () => {
    const [a] = await record(event('r-a', '2026-01-02T10:00:00Z'));
    const [b] = await record(event('r-b', '2026-01-02T10:01:00Z'));
    const [other] = await record(event('r-other', '2026-01-02T10:02:00Z'));
    await merge(a.issueId, b.issueId);
    const primary = (await database.query<{ issue_id: string }>(`SELECT issue_id::text FROM issues.issue_hashes WHERE hash = 'r-a'`))[0].issue_id;
    const [{ issues: before }] = await database.query<{ issues: number }>(`SELECT count(*)::int AS issues FROM issues.issues`);
    await expect(unmerge(primary, 'r-a', 'r-b')).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/keeps at least one/) });
    await expect(unmerge(primary, 'nope')).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/nope is not a hash of this issue/) });
    await expect(unmerge(primary, 'r-other')).rejects.toMatchObject({ code: 'invalid' });
    await expect(unmerge(other.issueId, 'r-other')).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/keeps at least one/) });
    expect(await database.query<{ issues: number }>(`SELECT count(*)::int AS issues FROM issues.issues`)).toEqual([{ issues: before }]);
    expect(await hashesOf(primary)).toEqual(['r-a', 'r-b']);
  });

  it(`merges, unmerges and deletes issues of ${MANY} events each with no statement over ${SMALL_STATEMENT_TIMEOUT_MS} ms`, async () => {
    const [a] = await record(event('big-a', '2026-02-01T00:00:00Z'));
    const [b] = await record(event('big-b', '2026-02-01T00:00:00Z'));
    await bulk(a.issueId, 'big-a', MANY, '2026-02-01T00:00:00Z');
    await bulk(b.issueId, 'big-b', MANY, '2026-02-02T00:00:00Z');
    const total = String(2 * MANY + 2);

    const merged = await withStatementTimeout(SMALL_STATEMENT_TIMEOUT_MS, () => merge(a.issueId, b.issueId));
    const primary = merged.parent;
    expect(await counts(primary)).toMatchObject({ seen: total, events: total, hour: total, day: total, tag: total, users: 50 });

    const unmerged = await withStatementTimeout(SMALL_STATEMENT_TIMEOUT_MS, () => unmerge(primary, 'big-b'));
    const each = String(MANY + 1);
    expect(await counts(unmerged.issueId)).toMatchObject({ seen: each, events: each, hour: each, day: each, tag: each, users: 50 });
    expect(await counts(primary)).toMatchObject({ seen: each, events: each, hour: each, day: each, tag: each, users: 50 });

    await withStatementTimeout(SMALL_STATEMENT_TIMEOUT_MS, () => commands().execute(new DeleteIssueCommand(organizationId, [unmerged.issueId])));
    expect(await database.query(`SELECT 1 FROM issues.error_events WHERE issue_id = $1 LIMIT 1`, [unmerged.issueId])).toEqual([]);
    expect(await database.query(`SELECT 1 FROM issues.issues WHERE id = $1`, [unmerged.issueId])).toEqual([]);
    const [fresh] = await record(event('big-b', '2026-02-05T00:00:00Z'));
    expect(fresh.isNewIssue).toBe(true);
  }, 300_000);

  it('after a crash between steps, every event is counted once where it is and the merged issue is hidden; the worker finishes the move', async () => {
    const [a] = await record(event('c-a', '2026-02-10T00:00:00Z'));
    const [b] = await record(event('c-b', '2026-02-10T00:00:00Z'));
    await bulk(a.issueId, 'c-a', 3000, '2026-02-10T00:00:00Z');
    await bulk(b.issueId, 'c-b', 2500, '2026-02-11T00:00:00Z');
    const moves = api.app.get(IssueEventMovesRepository);
    // What the merge's transaction commits, then one step, then the process dies.
    const moveId = await database.transaction(async (tx) => {
      await api.app.get(IssueMergesRepository).redirect(tx, a.issueId, [b.issueId]);
      return moves.enqueue(tx, { kind: 'merge', sourceIssueId: b.issueId, targetIssueId: a.issueId }, clock.now().toISOString());
    });
    expect(await moves.step(moveId)).toBe(true);
    const [primary, child] = [await counts(a.issueId), await counts(b.issueId)];
    expect(Number(primary.events) + Number(child.events)).toBe(5502);
    expect(Number(primary.hour) + Number(child.hour)).toBe(5502);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/?query=c-b&project=${projectId}`)).body).toEqual([]);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${b.issueId}/`)).body.id).toBe(a.issueId);

    const worker = api.app.get(IssueEventMovesWorker);
    expect(await worker.resumeStale()).toBe(0);
    clock.advance(5 * 60_000);
    await worker.resumeStale();
    // A worker of the test app may have taken it up first: waiting on the move's lock sees it through either way.
    await moves.complete(moveId);
    expect(await counts(a.issueId)).toMatchObject({ seen: '5502', events: '5502', hour: '5502', day: '5502', tag: '5502', users: 50 });
    expect(await database.query(`SELECT 1 FROM issues.issues WHERE id = $1`, [b.issueId])).toEqual([]);
    expect(await database.query(`SELECT 1 FROM issues.issue_event_moves`)).toEqual([]);
  }, 120_000);
});
