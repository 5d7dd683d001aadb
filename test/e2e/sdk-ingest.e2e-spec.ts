import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync, gzipSync } from 'node:zlib';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** Real SDK traffic: the official @sentry/node SDK in its own process, configured with our DSN. */
describe('ingestion from the @sentry/node SDK', () => {
  let api: TestApp;
  let dsn: string;
  let projectId: string;

  beforeAll(async () => {
    api = await startTestApp();
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    projectId = String(keys.body[0].projectId);
  });

  afterAll(async () => {
    await api?.close();
  });

  const sendWithSdk = (scenario: string) => run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, scenario], { timeout: 30_000 });

  /**
   * Waits until everything accepted so far is processed: the queue and the outcomes are empty as
   * seen from another connection (rows a worker holds stay visible until its batch commits).
   */
  const processed = () => eventsProcessed(api);

  it('groups the SDK errors into issues and serves tags, users and stats', async () => {
    const before = Date.now() / 1000;
    await sendWithSdk('checkout');
    await processed();

    const database = api.app.get(Database);
    const issues = await database.query<{ id: string; short_id: string; title: string; times_seen: string; user_count: number; culprit: string }>(
      `SELECT id, short_id, title, times_seen, user_count, culprit FROM issues.issues WHERE project_id = $1 ORDER BY id`,
      [projectId],
    );
    expect(issues).toHaveLength(2);
    // The SDK sends concurrently: events may arrive in any order, and the first titles its issue.
    const cardError = issues.find((issue) => issue.title.startsWith('TypeError')) as (typeof issues)[number];
    const message = issues.find((issue) => issue !== cardError) as (typeof issues)[number];
    expect(issues.map((issue) => issue.short_id).sort()).toEqual(['WEB-1', 'WEB-2']);
    expect(cardError).toMatchObject({ times_seen: '2', user_count: 1 });
    expect(cardError.title).toMatch(/^TypeError: Card declined for amount (150|175)$/);
    expect(cardError.culprit).toContain('chargeCard');
    expect(message.title).toMatch(/Inventory low for item \d+$/);

    // Each stored event and each new issue is a fact in the event store, for webhooks and modules.
    const facts = await database.query<{ event_type: string; data: Record<string, unknown> }>(
      `SELECT event_type, data FROM event_store.events WHERE event_type IN ('ingest.ErrorEventProcessed', 'issues.IssueCreated') ORDER BY global_position`,
    );
    expect(facts.filter((f) => f.event_type === 'issues.IssueCreated')).toHaveLength(2);
    const processedFacts = facts.filter((f) => f.event_type === 'ingest.ErrorEventProcessed');
    expect(processedFacts).toHaveLength(3);
    // In the order the events arrived, which the SDK's concurrent sends do not fix.
    const firstCardError = processedFacts.find((fact) => fact.data.issueId === cardError.id && fact.data.isNewIssue) as (typeof processedFacts)[number];
    expect(firstCardError.data).toMatchObject({
      projectSlug: 'web',
      issueId: cardError.id,
      isNewIssue: true,
      level: 'error',
      environment: 'e2e',
      release: 'shop@1.2.3',
    });
    expect(firstCardError.data.tags).toEqual(expect.arrayContaining([['feature', 'checkout']]));

    const keys = (await api.request('GET', '/api/0/projects/acme/web/tags/')).body as Array<{ key: string; name: string }>;
    expect(keys.map((tag) => tag.key)).toEqual(expect.arrayContaining(['environment', 'feature', 'release', 'user', 'user.email']));
    expect(keys.map((tag) => tag.key)).toEqual([...keys.map((tag) => tag.key)].sort());
    expect(keys.find((tag) => tag.key === 'release')).toEqual({ key: 'release', name: 'Release', canDelete: false });
    const environment = await api.request('GET', '/api/0/projects/acme/web/tags/environment/values/');
    expect(environment.body).toEqual([expect.objectContaining({ key: 'environment', value: 'e2e', name: 'e2e', count: 3 })]);
    const release = await api.request('GET', '/api/0/projects/acme/web/tags/release/values/');
    expect(release.body[0]).toMatchObject({ value: 'shop@1.2.3', count: 3 });
    const feature = await api.request('GET', '/api/0/projects/acme/web/tags/feature/values/');
    expect(feature.body[0]).toMatchObject({ value: 'checkout' });
    expect((await api.request('GET', '/api/0/projects/acme/web/tags/user.email/values/')).body[0].value).toBe('jane@example.com');
    expect((await api.request('GET', '/api/0/projects/acme/web/tags/nope/values/')).status).toBe(404);

    const users = await api.request('GET', '/api/0/projects/acme/web/users/');
    expect(users.body).toEqual([expect.objectContaining({ tagValue: 'id:u-42', email: 'jane@example.com', username: 'jane' })]);
    expect((await api.request('GET', '/api/0/projects/acme/web/users/?query=email:jane@example.com')).body).toHaveLength(1);
    expect((await api.request('GET', '/api/0/projects/acme/web/users/?query=email:nobody@example.com')).body).toHaveLength(0);

    const since = Math.floor(before) - 60;
    const until = Math.ceil(Date.now() / 1000) + 10;
    const received = await api.request('GET', `/api/0/projects/acme/web/stats/?stat=received&since=${since}&until=${until}&resolution=10s`);
    expect(received.status).toBe(200);
    const total = (received.body as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0);
    expect(total).toBe(3);
    expect((received.body as Array<[number, number]>).every(([at]) => at % 10 === 0)).toBe(true);
    const generated = await api.request('GET', `/api/0/projects/acme/web/stats/?stat=generated&since=${since}&until=${until}&resolution=1h`);
    expect((generated.body as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0)).toBe(3);
    expect((await api.request('GET', '/api/0/projects/acme/web/stats/?stat=nope')).body).toEqual({ detail: 'Invalid stat' });
    expect((await api.request('GET', '/api/0/projects/acme/web/stats/?resolution=5m')).body).toEqual({ detail: 'Invalid resolution' });
  });

  it('joins a later error of the same kind to the same issue, and reopens it once resolved', async () => {
    const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=TypeError')).body;
    expect(issue).toMatchObject({ count: '2', userCount: 1, status: 'unresolved' });
    expect(issue.firstRelease).toMatchObject({ version: 'shop@1.2.3', shortVersion: '1.2.3', dateCreated: expect.any(String) });
    expect(issue.stats['24h'].reduce((sum: number, [, count]: [number, number]) => sum + count, 0)).toBe(2);
    const issueRelease = await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tags/release/values/`);
    expect(issueRelease.body).toEqual([expect.objectContaining({ key: 'release', value: 'shop@1.2.3', count: 2 })]);
    const issueTags = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tags/?key=feature&key=user`)).body;
    expect(issueTags).toEqual([
      expect.objectContaining({ key: 'feature', totalValues: 2, topValues: [expect.objectContaining({ value: 'checkout', count: 2 })] }),
      expect.objectContaining({ key: 'user', name: 'User', totalValues: 2, topValues: [expect.objectContaining({ value: 'id:u-42' })] }),
    ]);
    const resolved = await api.request('PUT', `/api/0/organizations/acme/issues/${issue.id}/`, { body: { status: 'resolved' } });
    expect(resolved.body.status).toBe('resolved');

    await sendWithSdk('once');
    await processed();
    const reopened = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body;
    expect(reopened).toMatchObject({ count: '3', status: 'unresolved', substatus: 'regressed' });
    const latest = await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`);
    expect(latest.body.title).toBe('TypeError: Card declined for amount 200');

    const transitions = await api.app
      .get(Database)
      .query<{ event_type: string; data: { reason?: string } }>(`SELECT event_type, data FROM event_store.events WHERE stream_id = $1 ORDER BY version`, [
        `issue-${issue.id}`,
      ]);
    expect(transitions.map((t) => [t.event_type, t.data.reason])).toEqual([
      ['issues.IssueCreated', undefined],
      ['issues.IssueResolved', undefined],
      ['issues.IssueUnresolved', 'regression'],
    ]);
  });

  it('keeps breadcrumbs, request, user, contexts and extra, and serves them as Sentry shapes an event', async () => {
    await sendWithSdk('checkout-details');
    await processed();
    const [summary] = (await api.request('GET', '/api/0/projects/acme/web/events/?per_page=1')).body;
    expect(summary.tags).toContainEqual({ key: 'feature', value: 'cart' });
    const event = (await api.request('GET', `/api/0/projects/acme/web/events/${summary.id}/`)).body;
    const issueId = event.groupID;
    const latest = await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/events/latest/`);
    const byIssue = await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/events/${summary.id}/`);
    const [listed] = (await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/events/?full=true`)).body;
    for (const other of [latest.body, byIssue.body, listed])
      expect(other).toMatchObject({ eventID: summary.id, entries: event.entries, contexts: event.contexts });

    expect(event).toMatchObject({
      eventID: summary.id,
      title: 'TypeError: Card declined for amount 500',
      platform: 'node',
      release: { version: 'shop@1.2.3' },
      environment: 'e2e',
      dateCreated: expect.any(String),
      dateReceived: expect.any(String),
      user: { id: 'u-7', email: 'ada@example.com', username: 'ada', data: { plan: 'pro' } },
      sdk: { name: 'sentry.javascript.node', version: expect.any(String) },
      context: { attempt: 2 },
      fingerprints: [expect.stringMatching(/^[0-9a-f]{32}$/)],
      errors: [],
    });
    expect(event.contexts.cart).toEqual({ items: 3, total: 99.5, type: 'default' });
    expect(event.contexts.runtime).toMatchObject({ name: 'node', type: 'runtime' });
    expect(event.tags).toEqual(
      expect.arrayContaining([
        { key: 'feature', value: 'cart' },
        { key: 'url', value: 'https://shop.example.com/cart/checkout' },
      ]),
    );
    expect(event.entries.map((entry: { type: string }) => entry.type)).toEqual(['exception', 'breadcrumbs', 'request']);

    const [exception, breadcrumbs, request] = event.entries.map((entry: { data: unknown }) => entry.data);
    expect(exception.values[0]).toMatchObject({ type: 'TypeError', mechanism: { type: 'generic', handled: true } });
    const thrower = exception.values[0].stacktrace.frames.at(-1);
    expect(thrower).toMatchObject({ function: 'chargeCard', module: 'sentry-client', inApp: true, lineNo: expect.any(Number) });
    expect(thrower.context).toContainEqual([thrower.lineNo, expect.stringContaining('Card declined')]);

    // The SDK sent 121 crumbs; the newest 100 are kept, oldest first.
    expect(breadcrumbs.values).toHaveLength(100);
    expect(breadcrumbs.values[0]).toEqual({
      type: 'default',
      category: 'cart',
      level: 'info',
      message: 'step 21',
      data: { step: 21 },
      timestamp: expect.stringMatching(/Z$/),
      event_id: null,
    });
    expect(breadcrumbs.values.at(-1)).toMatchObject({
      type: 'http',
      category: 'http',
      level: 'warning',
      message: null,
      data: { url: 'https://pay.example.com/charge', method: 'POST', status_code: 502 },
    });

    expect(request).toEqual({
      apiTarget: null,
      url: 'https://shop.example.com/cart/checkout',
      method: 'POST',
      query: [['coupon', 'SPRING']],
      fragment: null,
      data: { items: 3, coupon: 'SPRING' },
      headers: [
        ['content-type', 'application/json'],
        ['user-agent', 'e2e-agent/1.0'],
      ],
      cookies: [['theme', 'dark']],
      env: null,
      inferredContentType: 'application/json',
    });
  });

  describe('refusals store nothing', () => {
    const queued = async () => (await api.app.get(Database).query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest.ingest_queue`))[0].n;
    const post = (path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
      fetch(`${api.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-sentry-envelope', ...headers } });
    const key = () => new URL(dsn).username;
    const envelope = (event: object, header: object = {}) =>
      `${JSON.stringify({ event_id: 'a'.repeat(32), ...header })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;

    it('answers garbage, wrong keys and oversize bodies with 4xx', async () => {
      await processed();
      const auth = { 'x-sentry-auth': `Sentry sentry_key=${key()}, sentry_version=7` };
      const garbage = await post(`/api/${projectId}/envelope/`, 'not an envelope', auth);
      expect(garbage.status).toBe(400);
      expect(((await garbage.json()) as { detail: string }).detail).toBeDefined();
      expect(
        (await post(`/api/${projectId}/envelope/`, envelope({ message: 'x' }), { 'x-sentry-auth': 'Sentry sentry_key=ffffffffffffffffffffffffffffffff' }))
          .status,
      ).toBe(401);
      expect((await post(`/api/${projectId}/envelope/`, envelope({ message: 'x' }))).status).toBe(401);
      expect((await post(`/api/999999/envelope/`, envelope({ message: 'x' }), auth)).status).toBe(403);
      const huge = await post(`/api/${projectId}/store/?sentry_key=${key()}`, JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) }), {
        'content-type': 'application/json',
      });
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { detail: string }).detail).toMatch(/^event of \d+ bytes exceeds 1048576$/);
      const notJson = await post(`/api/${projectId}/store/?sentry_key=${key()}`, 'not json', { 'content-type': 'application/json' });
      expect([notJson.status, await notJson.json()]).toEqual([400, { detail: 'event payload is not valid JSON' }]);
      const inEnvelope = await post(`/api/${projectId}/envelope/`, envelope({ message: 'x' }).replace('{"message":"x"}', '[1]'), auth);
      expect([inEnvelope.status, await inEnvelope.json()]).toEqual([400, { detail: 'item 1: event payload must be a JSON object' }]);
      expect(await queued()).toBe(0);
    });

    it('accepts gzip bodies, the store endpoint and the key in the query string', async () => {
      const gz = await post(`/api/${projectId}/envelope/?sentry_key=${key()}`, gzipSync(envelope({ message: 'zipped' })), { 'content-encoding': 'gzip' });
      expect(gz.status).toBe(200);
      expect((await gz.json()) as unknown).toEqual({ id: 'a'.repeat(32) });
      const store = await post(`/api/${projectId}/store/?sentry_key=${key()}`, JSON.stringify({ message: 'stored' }), { 'content-type': 'application/json' });
      expect(store.status).toBe(200);
      expect(store.headers.get('access-control-allow-origin')).toBe('*');
      // As old SDKs (raven) send it: base64 of the JSON, or of its zlib compression.
      for (const [message, encode] of [
        ['stored as base64', (json: Buffer) => json],
        ['stored as base64 zlib', deflateSync],
      ] as const) {
        const body = encode(Buffer.from(JSON.stringify({ message }))).toString('base64');
        expect((await post(`/api/${projectId}/store/?sentry_key=${key()}`, body, { 'content-type': 'application/octet-stream' })).status).toBe(200);
      }
      await processed();
      const stored = await api.app
        .get(Database)
        .query<{ message: string }>(`SELECT data->>'message' AS message FROM issues.error_events WHERE data->>'message' LIKE 'stored as base64%' ORDER BY 1`);
      expect(stored.map((row) => row.message)).toEqual(['stored as base64', 'stored as base64 zlib']);
    });

    it('drops events matched by inbound filters, counted as blacklisted', async () => {
      const filters = '/api/0/projects/acme/web/filters/';
      expect((await api.request('PUT', `${filters}error-messages/`, { body: { value: ['*Maintenance window*'] } })).status).toBe(204);
      expect((await api.request('PUT', `${filters}localhost/`, { body: { active: true } })).status).toBe(204);
      expect((await api.request('PUT', `${filters}releases/`, { body: { value: ['*-beta'] } })).status).toBe(204);
      expect((await api.request('PUT', `${filters}web-crawlers/`, { body: { active: true } })).status).toBe(404);
      expect((await api.request('PUT', `${filters}localhost/`, { body: { active: 'yes' } })).status).toBe(400);
      expect((await api.request('GET', filters)).body).toEqual([
        { id: 'localhost', active: true },
        { id: 'error-messages', active: true, value: ['*Maintenance window*'] },
        { id: 'releases', active: true, value: ['*-beta'] },
      ]);

      const send = (event: object) => post(`/api/${projectId}/envelope/?sentry_key=${key()}`, envelope(event, { event_id: undefined }));
      for (const event of [
        { message: 'Maintenance window started' },
        { message: 'from a laptop', user: { ip_address: '127.0.0.1' } },
        { message: 'beta build', release: 'shop@2.0.0-beta' },
        { message: 'kept by every filter' },
      ]) {
        expect((await send(event)).status).toBe(200);
      }
      await processed();
      const kept = await api.app
        .get(Database)
        .query<{ title: string }>(
          `SELECT i.title FROM issues.error_events e JOIN issues.issues i ON i.id = e.issue_id WHERE e.data->>'message' IN ('Maintenance window started', 'from a laptop', 'beta build', 'kept by every filter')`,
        );
      expect(kept.map((row) => row.title)).toEqual(['kept by every filter']);
      const until = Math.ceil(Date.now() / 1000) + 10;
      const blacklisted = await api.request('GET', `/api/0/projects/acme/web/stats/?stat=blacklisted&since=${until - 600}&until=${until}&resolution=10s`);
      expect((blacklisted.body as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0)).toBe(3);
      await api.request('PUT', `${filters}error-messages/`, { body: { active: false } });
      expect((await api.request('GET', filters)).body[1]).toEqual({ id: 'error-messages', active: false, value: [] });
    });

    it('rate-limits a key with 429, Retry-After and X-Sentry-Rate-Limits, counted as rejected', async () => {
      const created = await api.request('POST', '/api/0/projects/acme/web/keys/', { body: { name: 'limited', rateLimit: { count: 1, window: 60 } } });
      const limitedKey = created.body.public as string;
      const send = () => post(`/api/${projectId}/envelope/?sentry_key=${limitedKey}`, envelope({ message: 'limited' }, { event_id: undefined }));
      expect((await send()).status).toBe(200);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:default;error;security:key:key_quota$/);
      await processed();
      const until = Math.ceil(Date.now() / 1000) + 10;
      const rejected = await api.request('GET', `/api/0/projects/acme/web/stats/?stat=rejected&since=${until - 600}&until=${until}&resolution=10s`);
      expect((rejected.body as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0)).toBe(1);
    });

    it('changes, disables and deletes a key through its detail endpoint, effective for the next SDK request', async () => {
      const created = await api.request('POST', '/api/0/projects/acme/web/keys/', { body: { name: 'managed' } });
      const path = `/api/0/projects/acme/web/keys/${created.body.id}/`;
      const send = () => post(`/api/${projectId}/envelope/?sentry_key=${created.body.public}`, envelope({ message: 'managed key' }, { event_id: undefined }));
      expect((await api.request('GET', path)).body).toEqual(created.body);

      const limited = await api.request('PUT', path, { body: { name: 'managed, limited', rateLimit: { count: 1, window: 60 } } });
      expect(limited.body).toMatchObject({ id: created.body.id, name: 'managed, limited', rateLimit: { count: 1, window: 60 }, isActive: true });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
      expect((await api.request('PUT', path, { body: { rateLimit: null } })).body.rateLimit).toBeNull();
      expect((await send()).status).toBe(200);

      const disabled = await api.request('PUT', path, { body: { isActive: false, browserSdkVersion: '7.x', dynamicSdkLoaderOptions: { hasReplay: true } } });
      expect(disabled.body).toMatchObject({ isActive: false, browserSdkVersion: '7.x', dynamicSdkLoaderOptions: { hasReplay: true, hasDebug: false } });
      expect((await send()).status).toBe(403);
      expect((await api.request('PUT', path, { body: { isActive: true } })).body).toMatchObject({
        isActive: true,
        name: 'managed, limited',
        browserSdkVersion: '7.x',
      });
      expect((await send()).status).toBe(200);

      const invalids = [
        { browserSdkVersion: '9.x' },
        { browserSdkVersion: null },
        { rateLimit: { count: -1, window: 60 } },
        { rateLimit: [] },
        { isActive: 'no' },
        { isActive: null },
        { name: null },
        { dynamicSdkLoaderOptions: { hasReplay: null } },
        { dynamicSdkLoaderOptions: [] },
        { colour: 'red' },
      ];
      for (const invalid of invalids) {
        expect([invalid, (await api.request('PUT', path, { body: invalid })).status]).toEqual([invalid, 400]);
      }
      const limitedAgain = await api.request('PUT', path, { body: { rateLimit: { count: 5, window: 60 } } });
      expect(limitedAgain.body.rateLimit).toEqual({ count: 5, window: 60 });
      // As Sentry clears it: both parts null.
      expect((await api.request('PUT', path, { body: { rateLimit: { count: null, window: null } } })).body.rateLimit).toBeNull();
      const writer = (await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['project:write', 'org:read'] } })).body.token as string;
      expect((await api.request('DELETE', path, { token: writer })).status).toBe(403);
      expect((await api.request('GET', path)).body.name).toBe('managed, limited');

      expect((await api.request('DELETE', path)).status).toBe(204);
      expect((await send()).status).toBe(401);
      expect((await api.request('GET', path)).status).toBe(404);
      expect((await api.request('PUT', path, { body: { name: 'gone' } })).status).toBe(404);
      expect((await api.request('DELETE', path)).status).toBe(404);
      const history = await api.app
        .get(Database)
        .query<{ event_type: string; data: { changes?: object } }>(
          `SELECT event_type, data FROM event_store.events WHERE stream_id = $1 AND data->>'publicKey' = $2 ORDER BY global_position`,
          [`project-${projectId}`, created.body.public],
        );
      expect(history.map((event) => event.event_type)).toEqual([
        'projects.ProjectKeyCreated',
        ...Array(6).fill('projects.ProjectKeyUpdated'),
        'projects.ProjectKeyDeleted',
      ]);
      expect(history[1].data.changes).toEqual({ name: 'managed, limited', rateLimit: { count: 1, window: 60 } });
      expect(history[2].data.changes).toEqual({ rateLimit: null });
    });
  });
});
