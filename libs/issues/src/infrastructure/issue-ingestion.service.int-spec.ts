import { randomUUID } from 'node:crypto';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { type IngestedEvent, IssueIngestion } from '../contracts/issue-ingestion';
import { IssueReadModel } from './issue-read-model.repository';
import { UserReportsRepository } from './user-reports.repository';

/**
 * An event id seen again (an SDK's retry) against PostgreSQL, whose claims are partitioned by the
 * day received: stored and counted once when it comes back the same day or the next (so within at
 * least 24 hours), stored again when it comes back later.
 */
describe('IssueIngestionService and repeated event ids', () => {
  let api: TestApp;
  let database: Database;
  let projectId: string;

  const event = (eventId: string, receivedAt: string): IngestedEvent => ({
    projectId,
    projectSlug: 'web',
    organizationId: '1',
    eventId,
    fingerprintHash: 'repeated',
    title: 'Error repeated',
    culprit: '',
    level: 'error',
    platform: 'node',
    occurredAt: receivedAt,
    receivedAt,
    tags: [['level', 'error']],
    data: { eventId, received: receivedAt },
  });
  const record = (...events: IngestedEvent[]) => database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  const stored = async (eventId: string) =>
    (
      await database.query<{ received_at: Date }>(`SELECT received_at FROM issues.error_events WHERE project_id = $1 AND event_id = $2 ORDER BY received_at`, [
        projectId,
        eventId,
      ])
    ).map((row) => row.received_at.toISOString());
  const timesSeen = async () =>
    Number(
      (
        await database.query<{ seen: string }>(`SELECT times_seen::text AS seen FROM issues.issues WHERE project_id = $1 AND fingerprint_hash = 'repeated'`, [
          projectId,
        ])
      )[0].seen,
    );

  beforeAll(async () => {
    api = await startTestApp({});
    database = api.app.get(Database);
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('stores an id once when it comes back in the same batch, the same day, or across midnight the next day', async () => {
    const sameDay = randomUUID().replace(/-/g, '');
    const acrossMidnight = randomUUID().replace(/-/g, '');
    expect(await record(event(sameDay, '2026-03-01T10:00:00.000Z'), event(sameDay, '2026-03-01T10:00:01.000Z'))).toHaveLength(1);
    expect(await record(event(sameDay, '2026-03-01T23:00:00.000Z'))).toEqual([]);
    expect(await record(event(acrossMidnight, '2026-03-01T23:59:00.000Z'))).toHaveLength(1);
    expect(await record(event(acrossMidnight, '2026-03-02T00:01:00.000Z'))).toEqual([]);
    // The next day as a whole: 47 hours after the first, still caught.
    expect(await record(event(sameDay, '2026-03-02T23:59:59.000Z'))).toEqual([]);

    expect(await stored(sameDay)).toEqual(['2026-03-01T10:00:00.000Z']);
    expect(await stored(acrossMidnight)).toEqual(['2026-03-01T23:59:00.000Z']);
    expect(await timesSeen()).toBe(2);
  });

  it('stores an id again when it comes back after the day after its first, and reads by id answer the newest', async () => {
    const eventId = randomUUID().replace(/-/g, '');
    await record(event(eventId, '2026-04-01T10:00:00.000Z'));
    expect(await record(event(eventId, '2026-04-03T00:00:00.000Z'))).toHaveLength(1);
    expect(await stored(eventId)).toEqual(['2026-04-01T10:00:00.000Z', '2026-04-03T00:00:00.000Z']);
    // The second one's claim is what a third finds the next day.
    expect(await record(event(eventId, '2026-04-04T09:00:00.000Z'))).toEqual([]);

    const found = await api.app.get(IssueReadModel).event({ projectId }, eventId);
    expect(found?.received_at.toISOString()).toBe('2026-04-03T00:00:00.000Z');
    // A user report on it is listed once, with the newest event's issue.
    const reports = api.app.get(UserReportsRepository);
    await reports.record([
      { projectId, reportId: 'report', eventId, name: 'Ann', email: 'ann@example.com', comments: 'again', receivedAt: '2026-04-04T10:00:00.000Z' },
    ]);
    const listed = (await reports.forProject(projectId, 0, 10)).filter((report) => report.event_id === eventId);
    expect(listed.map((report) => report.issue_id)).toEqual([found?.issue_id]);
  });
});
