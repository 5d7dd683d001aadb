import { randomUUID } from 'node:crypto';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { parseIssueSearch } from '../application/queries/issue-search';
import { IssueIngestion } from '../contracts/issue-ingestion';
import { IssueBookmarksRepository } from './issue-bookmarks.repository';
import { IssueReadModel } from './issue-read-model.repository';

const NOW = new Date('2025-06-01T10:30:00.000Z');
const HOUR = 3_600_000;

/** Bookmark search and the stream's time range against PostgreSQL, through the read model the issues API uses. */
describe('issue bookmarks and time range in the read model', () => {
  let api: TestApp;
  let database: Database;
  let bookmarks: IssueBookmarksRepository;
  let readModel: IssueReadModel;
  let organizationId: string;
  let adminId: string;
  const issues: Record<string, string> = {};

  async function record(projectId: string, fingerprint: string, agos: number[]): Promise<string> {
    const events = agos.map((ago) => {
      const occurredAt = new Date(NOW.getTime() - ago).toISOString();
      return {
        projectId,
        projectSlug: 'web',
        organizationId,
        eventId: randomUUID().replace(/-/g, ''),
        fingerprintHash: fingerprint,
        title: `Error: ${fingerprint}`,
        culprit: fingerprint,
        level: 'error',
        platform: 'node',
        occurredAt,
        receivedAt: occurredAt,
        tags: [],
        data: { title: `Error: ${fingerprint}` },
      };
    });
    const recorded = await database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
    return recorded[0].issueId;
  }

  const find = async (query: string, userId = adminId, range?: { start: string; end: string }) =>
    (
      await readModel.list({
        organizationId,
        search: parseIssueSearch(query, { now: NOW, userId }),
        sort: 'date',
        offset: 0,
        limit: 100,
        range,
      })
    )
      .map((row) => row.id)
      .sort();
  const named = (...names: string[]) => names.map((name) => issues[name]).sort();

  beforeAll(async () => {
    api = await startTestApp({}, { clock: new FixedClock(NOW) });
    database = api.app.get(Database);
    bookmarks = api.app.get(IssueBookmarksRepository);
    readModel = api.app.get(IssueReadModel);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    [{ user_id: adminId }] = await database.query<{ user_id: string }>(
      `SELECT user_id::text AS user_id FROM identity.member_directory WHERE email = 'admin@acme.test'`,
    );
    const projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    issues.first = await record(projectId, 'first', [HOUR]);
    issues.second = await record(projectId, 'second', [5 * HOUR, 50 * HOUR]);
    issues.third = await record(projectId, 'third', [72 * HOUR]);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('finds issues by who bookmarked them: me, a member by e-mail, negated, and none for a stranger', async () => {
    await bookmarks.set(database, [issues.first, issues.second], adminId, true, NOW);
    // A bookmark kept by someone who is not a member (say, who left) is not found by e-mail.
    await bookmarks.set(database, [issues.third], '999999', true, NOW);
    expect(await find('bookmarks:me')).toEqual(named('first', 'second'));
    expect(await find('!bookmarks:me')).toEqual(named('third'));
    expect(await find('bookmarks:admin@acme.test')).toEqual(named('first', 'second'));
    expect(await find('bookmarks:ADMIN@acme.test is:unresolved')).toEqual(named('first', 'second'));
    expect(await find('bookmarks:nobody@acme.test')).toEqual([]);
    expect(await find('bookmarks:999999')).toEqual(named('third'));
    expect(await find('bookmarks:me', '999999')).toEqual(named('third'));

    await bookmarks.set(database, [issues.first], adminId, false, NOW);
    expect(await find('bookmarks:me')).toEqual(named('second'));
    expect([...(await bookmarks.bookmarkedOf(adminId, [issues.first, issues.second, issues.third]))]).toEqual([issues.second]);
    expect((await bookmarks.bookmarkedOf(undefined, [issues.second])).size).toBe(0);
  });

  it('answers a range with the issues that had events in it, counted from hourly or daily buckets', async () => {
    const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR).toISOString();
    const until = new Date(NOW.getTime() + 1).toISOString();
    expect(await find('', adminId, { start: ago(24), end: until })).toEqual(named('first', 'second'));
    expect(await find('', adminId, { start: ago(4), end: until })).toEqual(named('first'));
    // From three days back daily buckets answer, so the whole of that day counts.
    expect(await find('', adminId, { start: ago(60), end: ago(40) })).toEqual(named('second', 'third'));
    expect(await find('bookmarks:me', adminId, { start: ago(24), end: until })).toEqual(named('second'));
    const counts = await readModel.rangeCounts([issues.first, issues.second, issues.third], { start: ago(24), end: until });
    expect(Object.fromEntries(counts)).toEqual({ [issues.first]: 1, [issues.second]: 1 });
    const filter = { organizationId, search: parseIssueSearch('', { now: NOW }) };
    expect(await readModel.count(filter, 10_000)).toBe(3);
    expect(await readModel.count(filter, 2)).toBe(2);
    expect(await readModel.count({ ...filter, range: { start: ago(24), end: until } }, 10_000)).toBe(2);
  });
});
