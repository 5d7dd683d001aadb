import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../../../../../../test/support/test-app';
import { type IngestedEvent, IssueIngestion } from '../../../contracts/issue-ingestion';
import { DeleteIssueCommand } from '../../commands/delete-issue/delete-issue.command';
import { type MergedIssues, MergeIssuesCommand } from './merge-issues.command';

const ACTOR = { type: 'user' as const, id: '1', name: 'Admin' };

/** Merging against PostgreSQL: what moves, what a racing ingest batch does, and deleting afterwards. */
describe('MergeIssuesHandler', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;

  const event = (fingerprint: string, occurredAt: string, user?: string): IngestedEvent => {
    const eventId = randomUUID().replace(/-/g, '');
    return {
      projectId,
      projectSlug: BOOTSTRAP.project,
      organizationId,
      eventId,
      fingerprintHash: fingerprint,
      title: `Error ${fingerprint}`,
      culprit: '',
      level: 'error',
      platform: 'node',
      occurredAt,
      receivedAt: occurredAt,
      userHash: user,
      tags: [['level', 'error']],
      data: { eventId, message: `Error ${fingerprint}` },
    };
  };
  const record = (...events: IngestedEvent[]) => database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  const merge = (...ids: string[]) => api.app.get(CommandBus).execute<MergeIssuesCommand, MergedIssues>(new MergeIssuesCommand(organizationId, ids, ACTOR));
  const counts = async (issueId: string) =>
    (
      await database.query<{ seen: string; users: number; events: string; stats: string; tag: string }>(
        `SELECT i.times_seen::text AS seen, i.user_count AS users,
                (SELECT count(*) FROM issues.error_events WHERE issue_id = i.id)::text AS events,
                (SELECT sum(count) FROM issues.issue_stats WHERE issue_id = i.id AND resolution = '1h')::text AS stats,
                (SELECT times_seen FROM issues.issue_tag_values WHERE issue_id = i.id AND key = 'level' AND value = 'error')::text AS tag
         FROM issues.issues i WHERE i.id = $1`,
        [issueId],
      )
    )[0];

  beforeAll(async () => {
    api = await startTestApp();
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('moves graphs, users and tag counts, leaves nothing of the merged issue but its stream and redirect, and groups both fingerprints of one batch into the primary', async () => {
    const [a] = await record(event('i-a', '2026-01-01T10:00:00Z', 'u1'), event('i-a', '2026-01-01T11:00:00Z', 'u2'));
    const [b] = await record(event('i-b', '2026-01-01T10:30:00Z', 'u2'));
    expect(await merge(b.issueId, a.issueId)).toEqual({ parent: a.issueId, children: [b.issueId] });
    expect(await counts(a.issueId)).toEqual({ seen: '3', users: 2, events: '3', stats: '3', tag: '3' });
    for (const table of ['issues', 'issue_stats', 'issue_tag_values', 'issue_users', 'error_events']) {
      const column = table === 'issues' ? 'id' : 'issue_id';
      expect(await database.query(`SELECT 1 FROM issues.${table} WHERE ${column} = $1`, [b.issueId])).toEqual([]);
    }
    expect(await database.query(`SELECT issue_id::text AS id FROM issues.issue_redirects WHERE previous_issue_id = $1`, [b.issueId])).toEqual([
      { id: a.issueId },
    ]);

    const later = await record(event('i-a', '2026-01-01T12:00:00Z', 'u3'), event('i-b', '2026-01-01T12:01:00Z', 'u3'));
    expect(later.map((recorded) => [recorded.issueId, recorded.isNewIssue])).toEqual([
      [a.issueId, false],
      [a.issueId, false],
    ]);
    expect(await counts(a.issueId)).toEqual({ seen: '5', users: 3, events: '5', stats: '5', tag: '5' });
  });

  it('waits for an ingest batch storing into the merged issue, then moves its event too', async () => {
    const [primary] = await record(event('r-a', '2026-01-02T10:00:00Z'), event('r-a', '2026-01-02T10:01:00Z'), event('r-a', '2026-01-02T10:01:30Z'));
    const [child] = await record(event('r-b', '2026-01-02T10:02:00Z'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let stored!: () => void;
    const storing = new Promise<void>((resolve) => (stored = resolve));
    const ingest = database.transaction(async (tx) => {
      const recorded = await api.app.get(IssueIngestion).recordEvents(tx, [event('r-b', '2026-01-02T10:03:00Z')]);
      stored();
      await held;
      return recorded;
    });
    await storing;
    const merging = merge(primary.issueId, child.issueId);
    // The merge cannot finish while the batch holds the issue's row.
    const early = await Promise.race([merging.then(() => 'merged'), new Promise((resolve) => setImmediate(() => resolve('waiting')))]);
    expect(early).toBe('waiting');
    release();
    expect((await ingest)[0].issueId).toBe(child.issueId);
    expect(await merging).toEqual({ parent: primary.issueId, children: [child.issueId] });
    expect(await counts(primary.issueId)).toMatchObject({ seen: '5', events: '5' });
  });

  it('deletes a primary with what it took in, and the fingerprints can start new issues', async () => {
    const [a] = await record(event('d-a', '2026-01-03T10:00:00Z'), event('d-a', '2026-01-03T10:01:00Z'));
    const [b] = await record(event('d-b', '2026-01-03T10:02:00Z'));
    await merge(a.issueId, b.issueId);
    await api.app.get(CommandBus).execute(new DeleteIssueCommand(organizationId, [a.issueId]));
    expect(await database.query(`SELECT 1 FROM issues.issue_hashes WHERE issue_id = $1`, [a.issueId])).toEqual([]);
    expect(await database.query(`SELECT 1 FROM issues.issue_redirects WHERE previous_issue_id = $1`, [b.issueId])).toEqual([]);
    const [fresh] = await record(event('d-b', '2026-01-03T10:05:00Z'));
    expect(fresh.isNewIssue).toBe(true);
  });
});
