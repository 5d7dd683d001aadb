import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** User feedback from the @sentry/node SDK, the legacy user_report item and the user-feedback API. */
describe('user feedback', () => {
  // Starts at a whole second of the real time (the SDK stamps its events with it); the test moves it on.
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  let api: TestApp;
  let dsn: string;
  let projectId: string;
  let publicKey: string;
  let sdkEventId: string;
  let issueId: string;
  let outsiderToken: string;

  const processed = () => eventsProcessed(api);

  const envelope = (items: Array<[Record<string, unknown>, unknown]>, key = publicKey) =>
    fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, {
      method: 'POST',
      body: [
        JSON.stringify({}),
        ...items.flatMap(([header, payload]) => [JSON.stringify(header), typeof payload === 'string' ? payload : JSON.stringify(payload)]),
      ].join('\n'),
    });

  beforeAll(async () => {
    api = await startTestApp({}, { clock });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    publicKey = keys.body[0].public;
    projectId = String(keys.body[0].projectId);
    const { stdout } = await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'feedback'], { timeout: 30_000 });
    sdkEventId = stdout.trim();
    await processed();
    [{ id: issueId }] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=')).body;
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    outsiderToken = (
      await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
        body: { name: 'all', scopes: ['org:admin', 'project:admin', 'event:admin'] },
      })
    ).body.token;
  });

  afterAll(async () => {
    await api?.close();
  });

  it("keeps the SDK's feedback, lists it on the issue of its event and on the project, in Sentry's shape", async () => {
    const onIssue = await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/user-reports/`);
    expect(onIssue.status).toBe(200);
    expect(onIssue.body).toEqual([
      {
        id: expect.any(String),
        eventID: sdkEventId,
        name: 'Grace',
        email: 'grace@example.com',
        comments: 'I was charged twice',
        dateCreated: expect.stringMatching(/Z$/),
        user: { id: 'u-9', email: 'grace@example.com', username: 'grace', ipAddress: null, name: null },
        event: { id: sdkEventId, eventID: sdkEventId },
        issue: { id: issueId },
      },
    ]);
    const onProject = await api.request('GET', '/api/0/projects/acme/web/user-reports/');
    expect(onProject.body.map((report: { comments: string }) => report.comments).sort()).toEqual(['I was charged twice', 'The receipt page is slow']);
    const unattached = onProject.body.find((report: { comments: string }) => report.comments === 'The receipt page is slow');
    expect(unattached).toMatchObject({ eventID: null, email: 'grace@example.com', name: 'grace', issue: null });
  });

  it("keeps the legacy user_report item and the API report, a resend replacing the first, and keeps the envelope's events whatever the report", async () => {
    const eventId = randomUUID().replace(/-/g, '');
    const sent = await envelope([
      [{ type: 'event' }, { event_id: eventId, message: 'Order failed', level: 'error' }],
      [{ type: 'user_report' }, { event_id: eventId, name: 'Ada', email: 'ada@example.com', comments: 'First try' }],
      [{ type: 'user_report' }, { event_id: 'not-an-id', comments: 'dropped' }],
      [{ type: 'feedback' }, '{broken'],
    ]);
    expect(sent.status).toBe(200);
    await processed();
    const [issue] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=Order')).body;
    expect(issue).toBeDefined();
    const api1 = await api.request('POST', '/api/0/projects/acme/web/user-feedback/', {
      body: { event_id: eventId, name: 'Ada L.', email: 'ada@example.com', comments: 'It failed at payment' },
    });
    expect(api1.status).toBe(200);
    expect(api1.body).toMatchObject({ eventID: eventId, name: 'Ada L.', comments: 'It failed at payment', issue: { id: issue.id } });
    const reports = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/user-reports/`)).body;
    expect(reports.map((report: { comments: string }) => report.comments)).toEqual(['It failed at payment']);
  });

  it.each([
    [{ event_id: 'nope', name: '', email: '', comments: 'x' }],
    [{ event_id: 'a'.repeat(32), name: '', email: '', comments: '' }],
    [{ event_id: 'a'.repeat(32), name: 'n'.repeat(129), email: '', comments: 'x' }],
    [{ event_id: 'a'.repeat(32), name: '', email: '', comments: 'nul \u0000' }],
    [{ event_id: 'a'.repeat(32), name: '', email: '' }],
  ])('refuses a bad report with 400 and keeps nothing: %j', async (body) => {
    const before = (await api.request('GET', '/api/0/projects/acme/web/user-reports/')).body.length;
    const response = await api.request('POST', '/api/0/projects/acme/web/user-feedback/', { body });
    expect(response.status).toBe(400);
    expect(response.body.detail).toEqual(expect.any(String));
    expect((await api.request('GET', '/api/0/projects/acme/web/user-reports/')).body).toHaveLength(before);
  });

  it('deletes the reports with their project', async () => {
    const created = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Short lived', slug: 'short-lived' } });
    const sent = await api.request('POST', '/api/0/projects/acme/short-lived/user-feedback/', {
      body: { event_id: 'c'.repeat(32), name: '', email: '', comments: 'gone soon' },
    });
    expect(sent.status).toBe(200);
    expect((await api.request('DELETE', '/api/0/projects/acme/short-lived/')).status).toBeLessThan(300);
    const database = api.app.get(Database);
    await expect(database.query(`SELECT 1 FROM issues.user_reports WHERE project_id = $1`, [created.body.id])).resolves.toEqual([]);
  });

  it("answers 404 to another organization's token on every route", async () => {
    for (const [method, path, body] of [
      ['GET', `/api/0/organizations/acme/issues/${issueId}/user-reports/`],
      ['GET', '/api/0/projects/acme/web/user-reports/'],
      ['POST', '/api/0/projects/acme/web/user-feedback/', { event_id: sdkEventId, name: '', email: '', comments: 'intrusion' }],
      ['GET', `/api/0/organizations/initech/issues/${issueId}/user-reports/`],
      ['GET', `/api/0/projects/initech/web/user-reports/`],
    ] as Array<[string, string, unknown?]>) {
      expect({ path, status: (await api.request(method, path, { token: outsiderToken, body })).status }).toEqual({ path, status: 404 });
    }
  });

  describe('budgets', () => {
    const report = (eventId: string, comments: string) =>
      [{ type: 'user_report' }, { event_id: eventId, name: 'Eve', email: 'eve@example.com', comments }] as [Record<string, unknown>, unknown];
    const feedback = (comments: string) =>
      [{ type: 'feedback' }, { event_id: randomUUID().replace(/-/g, ''), contexts: { feedback: { message: comments } } }] as [Record<string, unknown>, unknown];
    const event = (message: string) => [{ type: 'event' }, { event_id: randomUUID().replace(/-/g, ''), message }] as [Record<string, unknown>, unknown];
    const stored = async (comments: string) =>
      (await api.app.get(Database).query<{ n: number }>(`SELECT count(*)::int AS n FROM issues.user_reports WHERE comments LIKE $1`, [comments]))[0].n;
    const limitedKey = async (name: string) =>
      (await api.request('POST', '/api/0/projects/acme/web/keys/', { body: { name, rateLimit: { count: 2, window: 60 } } })).body.public as string;

    it("counts user reports against the key's rate limit, per category: reports do not escape it, and a burst of errors does not stop them", async () => {
      const key = await limitedKey('limited reports');
      expect((await envelope([feedback('quota 1')], key)).status).toBe(200);
      expect((await envelope([feedback('quota 2')], key)).status).toBe(200);
      const refused = await envelope([feedback('quota 3')], key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:feedback:key:key_quota$/);
      expect(await stored('quota %')).toBe(2);

      // Errors have their own window: the key still takes them, with the reports it drops named.
      const mixed = await envelope([event('errors still welcome'), feedback('quota 4')], key);
      expect(mixed.status).toBe(200);
      expect(mixed.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:feedback:key:key_quota$/);
      expect(await stored('quota %')).toBe(2);

      const burst = await limitedKey('error burst');
      expect((await envelope([event('burst 1'), event('burst 2')], burst)).status).toBe(200);
      const errors = await envelope([event('burst 3')], burst);
      expect(errors.status).toBe(429);
      expect(errors.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:default;error;security:key:key_quota$/);
      const afterBurst = await envelope([event('burst 4'), feedback('after the burst')], burst);
      expect(afterBurst.status).toBe(200);
      expect(afterBurst.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:default;error;security:key:key_quota$/);
      expect(await stored('after the burst')).toBe(1);
      await processed();
      const kept = await api.app
        .get(Database)
        .query<{ message: string }>(
          `SELECT data->>'message' AS message FROM issues.error_events WHERE data->>'message' LIKE 'burst %' OR data->>'message' = 'errors still welcome' ORDER BY 1`,
        );
      expect(kept.map((row) => row.message)).toEqual(['burst 1', 'burst 2', 'errors still welcome']);
    });

    it('lets a report be replaced only within 5 minutes of its first arrival, as Sentry does, by the API and by the SDK', async () => {
      const eventId = randomUUID().replace(/-/g, '');
      const send = (comments: string) =>
        api.request('POST', '/api/0/projects/acme/web/user-feedback/', { body: { event_id: eventId, name: 'Eve', email: 'eve@example.com', comments } });
      expect((await send('first words')).status).toBe(200);
      clock.advance(4 * 60_000);
      expect((await send('corrected within the window')).body).toMatchObject({ comments: 'corrected within the window' });

      clock.advance(2 * 60_000);
      const late = await send('rewritten later');
      expect([late.status, late.body]).toEqual([409, { detail: 'Feedback for this event cannot be modified.' }]);
      expect((await envelope([report(eventId, 'rewritten by whoever holds the DSN')])).status).toBe(200);
      expect(await stored('corrected within the window')).toBe(1);
      expect(await stored('rewritten %')).toBe(0);
    });

    it('keeps the last of two reports with one id in an envelope, and the rest of the envelope', async () => {
      const eventId = randomUUID().replace(/-/g, '');
      const sent = await envelope([
        [{ type: 'event' }, { event_id: eventId, message: 'Twice reported', level: 'error' }],
        report(eventId, 'said once'),
        report(eventId, 'said twice'),
      ]);
      expect(sent.status).toBe(200);
      await processed();
      const [issue] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=Twice')).body;
      expect(issue).toMatchObject({ title: 'Twice reported' });
      const reports = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/user-reports/`)).body;
      expect(reports.map((kept: { comments: string }) => kept.comments)).toEqual(['said twice']);
    });
  });
});
