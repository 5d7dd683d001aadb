import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventsProcessed } from '../support/events-processed';
import { startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);

/**
 * Release health from the real @sentry/node SDK: processes that end well, one that captures an
 * error first (two updates of one errored session), one that crashes on an uncaught exception, and
 * an HTTP server whose requests the SDK sends as pre-aggregated sessions. The sessions API then
 * answers what Sentry would for the same sessions, and the release carries its health data.
 */
describe('release health from the @sentry/node SDK', () => {
  let api: TestApp;
  let dsn: string;
  let projectId: number;

  beforeAll(async () => {
    api = await startTestApp();
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    projectId = Number(keys.body[0].projectId);
    const client = join(__dirname, '..', 'support', 'sentry-session-client.cjs');
    const runs: Array<[string, string?]> = [['ok', 'u-1'], ['ok', 'u-2'], ['handled', 'u-3'], ['crash', 'u-4'], ['server']];
    await Promise.all(
      runs.map(async ([scenario, user]) => {
        // The crash ends its process with the exit code of an uncaught exception.
        await run(process.execPath, [client, dsn, scenario, ...(user ? [user] : [])], { timeout: 30_000 }).catch((error: { code?: number }) => {
          if (!(scenario === 'crash' && error.code === 1)) throw error;
        });
      }),
    );
    // The release is made by the handled error's processing, which follows its acceptance.
    await eventsProcessed(api);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const sessions = (query: string) => api.request('GET', `/api/0/organizations/acme/sessions/?${query}`);

  it('answers crash-free rates, sessions and users as Sentry does', async () => {
    const fields = ['sum(session)', 'count_unique(user)', 'crash_free_rate(session)', 'crash_free_rate(user)']
      .map((f) => `field=${encodeURIComponent(f)}`)
      .join('&');
    const answer = await sessions(`${fields}&statsPeriod=24h&interval=1h&groupBy=release&project=${projectId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.intervals).toHaveLength(24);
    expect(answer.body.groups).toHaveLength(1);
    const [group] = answer.body.groups;
    expect(group.by).toEqual({ release: 'shop@2.0.0' });
    // Seven sessions (four processes, three requests), one crashed; four users, one of them crashed.
    expect(group.totals).toEqual({
      'sum(session)': 7,
      'count_unique(user)': 4,
      'crash_free_rate(session)': 1 - 1 / 7,
      'crash_free_rate(user)': 0.75,
    });
    const series = group.series['sum(session)'] as number[];
    expect(series).toHaveLength(24);
    expect(series.reduce((sum, value) => sum + value, 0)).toBe(7);
  });

  it('splits the sessions by status, the errored session counted once', async () => {
    const answer = await sessions(`field=sum(session)&field=count_unique(user)&groupBy=session.status&environment=production`);
    expect(answer.status).toBe(200);
    const byStatus = Object.fromEntries(
      answer.body.groups.map((group: { by: Record<string, string>; totals: Record<string, number> }) => [group.by['session.status'], group.totals]),
    );
    expect(byStatus).toEqual({
      healthy: { 'sum(session)': 4, 'count_unique(user)': 2 },
      errored: { 'sum(session)': 2, 'count_unique(user)': 1 },
      abnormal: { 'sum(session)': 0, 'count_unique(user)': 0 },
      crashed: { 'sum(session)': 1, 'count_unique(user)': 1 },
    });
  });

  it('carries health data on the release with health=1', async () => {
    const list = await api.request('GET', '/api/0/organizations/acme/releases/?health=1');
    const release = list.body.find((entry: { version: string }) => entry.version === 'shop@2.0.0');
    expect(release).toBeDefined();
    const project = release.projects.find((entry: { id: number }) => entry.id === projectId);
    expect(project.hasHealthData).toBe(true);
    expect(project.healthData).toMatchObject({
      crashFreeSessions: (1 - 1 / 7) * 100,
      crashFreeUsers: 75,
      totalSessions: 7,
      totalUsers: 4,
      sessionsCrashed: 1,
      sessionsErrored: 2,
      totalSessions24h: 7,
      totalProjectSessions24h: 7,
      adoption: 100,
      sessionsAdoption: 100,
      hasHealthData: true,
    });
    expect(project.healthData.stats['24h']).toHaveLength(24);

    const detail = await api.request('GET', `/api/0/organizations/acme/releases/${encodeURIComponent('shop@2.0.0')}/`);
    expect(detail.body.projects[0].hasHealthData).toBe(true);
    expect(detail.body.projects[0]).not.toHaveProperty('healthData');
  });

  it('filters by release and refuses what Sentry refuses', async () => {
    const other = await sessions('field=sum(session)&query=release:"shop@9.9.9"');
    expect(other.body.groups).toEqual([expect.objectContaining({ by: {}, totals: { 'sum(session)': 0 } })]);
    for (const [query, detail] of [
      ['statsPeriod=24h', 'Request is missing a "field"'],
      ['field=count()', 'Invalid field: "count()"'],
      ['field=sum(session)&groupBy=transaction', 'Invalid groupBy: "transaction"'],
      ['field=sum(session)&interval=10m', 'The interval has to be a multiple of the minimum interval of one hour.'],
      [
        'field=sum(session)&statsPeriod=90d&interval=1h',
        'Your interval and date range would create too many results. Use a larger interval, or a smaller date range.',
      ],
      ['field=sum(session)&query=user:ada', 'Invalid query: sessions cannot be searched by user; use release or environment'],
      ['field=sum(session)&project=999999', 'Invalid project ids: 999999.'],
    ]) {
      const refused = await sessions(query);
      expect({ query, status: refused.status, body: refused.body }).toEqual({ query, status: 400, body: { detail } });
    }
  });
});
