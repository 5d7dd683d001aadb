import { randomUUID } from 'node:crypto';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { parseIssueSearch } from '../application/queries/issue-search';
import { type IngestedEvent, IssueIngestion } from '../contracts/issue-ingestion';
import { issueSearchConditions } from './issue-search.sql';

const NOW = new Date('2026-03-01T12:00:00Z');

/** The issue search's SQL against PostgreSQL: event-level terms asked of one event, unhandled issues. */
describe('issue search SQL', () => {
  let api: TestApp;
  let database: Database;
  let project: string;

  const event = (fingerprint: string, tags: Array<[string, string]>, unhandled = false): IngestedEvent => ({
    projectId: project,
    projectSlug: 'web',
    organizationId: '1',
    eventId: randomUUID().replace(/-/g, ''),
    fingerprintHash: fingerprint,
    title: fingerprint,
    culprit: '',
    level: 'error',
    platform: 'javascript',
    occurredAt: NOW.toISOString(),
    receivedAt: NOW.toISOString(),
    tags: [['level', 'error'], ...tags],
    unhandled,
    data: { title: fingerprint },
  });
  const record = (...events: IngestedEvent[]) => database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  const search = async (query: string, range?: { start: string; end: string }): Promise<string[]> => {
    const params: unknown[] = [project];
    const conditions = issueSearchConditions(parseIssueSearch(query, { now: NOW }), { params, organizationId: '1', latestReleases: ['2.0'], range });
    const rows = await database.query<{ title: string }>(
      `SELECT i.title FROM issues.issues i WHERE i.project_id = $1::bigint AND ${conditions.join(' AND ')} ORDER BY i.title`,
      params,
    );
    return rows.map((row) => row.title);
  };

  beforeAll(async () => {
    api = await startTestApp({});
    database = api.app.get(Database);
    project = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    await record(
      // One event in staging of 1.1: found.
      event('together', [
        ['environment', 'staging'],
        ['release', '1.1'],
      ]),
      // Staging and 1.1, but never in the same event: not found.
      event('apart', [
        ['environment', 'staging'],
        ['release', '1.0'],
      ]),
      event('apart', [
        ['environment', 'production'],
        ['release', '1.1'],
      ]),
      event('unhandled-later', [['browser.name', 'Chrome']]),
      event('unhandled-later', [['browser.name', 'Firefox']], true),
      event('latest', [
        ['environment', 'staging'],
        ['release', '2.0'],
      ]),
    );
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('asks all event-level terms of one event, as Sentry does', async () => {
    expect(await search('environment:staging release:1.1')).toEqual(['together']);
    expect(await search('environment:staging')).toEqual(['apart', 'latest', 'together']);
    expect(await search('release:1.1')).toEqual(['apart', 'together']);
    expect(await search('environment:staging release:1.*')).toEqual(['apart', 'together']);
    expect(await search('environment:staging release:[1.1, 2.0]')).toEqual(['latest', 'together']);
    expect(await search('environment:staging release:latest')).toEqual(['latest']);
    expect(await search('has:environment release:1.0')).toEqual(['apart']);
    expect(await search('environment:production release:1.0')).toEqual([]);
    // A negated term keeps its issue-level meaning: no event of the issue had it.
    expect(await search('environment:staging !release:1.0')).toEqual(['latest', 'together']);
  });

  it('finds unhandled issues, and asks unhandled of the same event as the other terms', async () => {
    expect(await search('error.unhandled:true')).toEqual(['unhandled-later']);
    expect(await search('error.handled:0')).toEqual(['unhandled-later']);
    expect(await search('!error.unhandled:true environment:staging')).toEqual(['apart', 'latest', 'together']);
    expect(await search('error.unhandled:true browser.name:Firefox')).toEqual(['unhandled-later']);
    expect(await search('error.unhandled:true browser.name:Chrome')).toEqual([]);
    const [row] = await database.query<{ unhandled: boolean }>(
      `SELECT unhandled FROM issues.issues WHERE project_id = $1::bigint AND title = 'unhandled-later'`,
      [project],
    );
    expect(row.unhandled).toBe(true);
  });

  it("asks the event-level terms of an event in the stream's range", async () => {
    const hourBefore = new Date(NOW.getTime() - 3_600_000).toISOString();
    const after = new Date(NOW.getTime() + 1000).toISOString();
    expect(await search('environment:staging release:1.1', { start: hourBefore, end: after })).toEqual(['together']);
    expect(await search('environment:staging release:1.1', { start: after, end: new Date(NOW.getTime() + 3_600_000).toISOString() })).toEqual([]);
  });
});
