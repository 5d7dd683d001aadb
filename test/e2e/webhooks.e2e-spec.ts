import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventProcessing } from '@faultline/ingest';
import { Database } from '@faultline/platform';
import { ServiceHookOutbox, verifySignature } from '@faultline/webhooks';
import { startTestApp, type TestApp } from '../support/test-app';
import { answer, hasValidSignature, WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);

interface Hook {
  id: string;
  url: string;
  secret: string;
  status: string;
  events: string[];
  dateCreated: string;
}

/** Service hooks end to end: the API, then deliveries to a real receiver on loopback. */
describe('service hooks and webhook delivery', () => {
  let api: TestApp;
  const receiver = new WebhookReceiver();
  let projectId: string;
  let publicKey: string;
  let dsn: string;

  beforeAll(async () => {
    await receiver.start();
    api = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
    dsn = keys.body[0].dsn.public;
  });

  afterAll(async () => {
    await api?.close();
    await receiver.close();
  });

  const hooksPath = '/api/0/projects/acme/web/hooks/';

  async function createHook(path: string, events = ['event.created']): Promise<Hook> {
    const response = await api.request('POST', hooksPath, { body: { url: `${receiver.url}${path}`, events } });
    expect(response.status).toBe(201);
    receiver.setSecret(path, response.body.secret);
    return response.body;
  }

  async function sendError(message: string, app: TestApp = api, key = publicKey, project = projectId): Promise<string> {
    const eventId = crypto.randomUUID().replace(/-/g, '');
    const response = await fetch(`${app.baseUrl}/api/${project}/store/?sentry_key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: eventId, level: 'error', platform: 'node', message, tags: { region: 'eu' } }),
    });
    expect(response.status).toBe(200);
    await app.app.get(EventProcessing).drain();
    return eventId;
  }

  async function deliveries(hookId: string, query = '', app: TestApp = api) {
    return (await app.request('GET', `${hooksPath}${hookId}/deliveries/${query}`)).body;
  }

  async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const removeHook = (hook: Hook) => api.request('DELETE', `${hooksPath}${hook.id}/`);

  describe('the hooks API', () => {
    it('creates a hook as Sentry does: 201 with a 32-hex id, a 64-hex secret, sorted events and a millisecond date', async () => {
      const response = await api.request('POST', hooksPath, { body: { url: `${receiver.url}/api-test`, events: ['event.created', 'event.alert'] } });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        url: `${receiver.url}/api-test`,
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
        status: 'active',
        events: ['event.alert', 'event.created'],
        dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const hook = response.body as Hook;

      const list = await api.request('GET', hooksPath);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([hook]);
      expect((await api.request('GET', `${hooksPath}${hook.id}/`)).body).toEqual(hook);

      const updated = await api.request('PUT', `${hooksPath}${hook.id}/`, { body: { events: ['event.alert'], isActive: false } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: hook.id, url: hook.url, events: ['event.alert'], status: 'disabled', secret: hook.secret });
      expect((await api.request('GET', `${hooksPath}?status=disabled`)).body.map((h: Hook) => h.id)).toEqual([hook.id]);
      expect((await api.request('GET', `${hooksPath}?status=active`)).body).toEqual([]);
      expect((await api.request('GET', `${hooksPath}?status=gone`)).status).toBe(400);

      expect((await api.request('DELETE', `${hooksPath}${hook.id}/`)).status).toBe(204);
      expect((await api.request('GET', `${hooksPath}${hook.id}/`)).status).toBe(404);
      expect((await api.request('DELETE', `${hooksPath}${hook.id}/`)).status).toBe(404);
    });

    it('refuses bad input with 400 and creates nothing', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ url: `${receiver.url}/x`, events: ['event.exploded'] }, /Invalid event name: event.exploded/],
        [{ url: `${receiver.url}/x`, events: [] }, /at least one/],
        [{ url: 'ftp://example.com/hook', events: ['event.created'] }, /http\(s\)/],
        [{ url: '/relative', events: ['event.created'] }, /http\(s\)/],
        [{ events: ['event.created'] }, /url/],
        [{ url: `${receiver.url}/x` }, /events/],
      ];
      for (const [body, detail] of cases) {
        const response = await api.request('POST', hooksPath, { body });
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(detail);
      }
      expect((await api.request('GET', hooksPath)).body).toEqual([]);
    });

    it('answers 403 without the servicehooks feature and creates nothing', async () => {
      const created = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Plain', slug: 'plain' } });
      expect(created.status).toBe(201);
      await api.app.get(Database).execute(`UPDATE projects.projects SET features = '{}' WHERE slug = 'plain'`);
      const response = await api.request('POST', '/api/0/projects/acme/plain/hooks/', { body: { url: `${receiver.url}/x`, events: ['event.created'] } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: 'You do not have that feature enabled' });
      expect((await api.request('GET', '/api/0/projects/acme/plain/hooks/')).status).toBe(403);
      const [{ n }] = await api.app.get(Database).query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.service_hooks`);
      expect(n).toBe(0);
    });

    it('requires project:read to list and project:write to create', async () => {
      const token = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['project:read'] } });
      expect(token.status).toBe(201);
      expect((await api.request('GET', hooksPath, { token: token.body.token })).status).toBe(200);
      const refused = await api.request('POST', hooksPath, { token: token.body.token, body: { url: `${receiver.url}/x`, events: ['event.created'] } });
      expect(refused.status).toBe(403);
    });
  });

  describe('delivery', () => {
    it('sends one signed event.created for an error from the @sentry/node SDK', async () => {
      const hook = await createHook('/sdk');
      await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'error-only'], { timeout: 30_000 });
      await until(
        async () => {
          await api.app.get(EventProcessing).drain();
          return receiver.to('/sdk').length;
        },
        (n) => n >= 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [request] = receiver.to('/sdk');
      expect(receiver.to('/sdk')).toHaveLength(1);

      // The signature holds over the raw bytes and over a re-serialisation of the parsed body.
      const digest = (body: string) => createHmac('sha256', hook.secret).update(body).digest('hex');
      expect(request.headers['x-sentry-hook-signature']).toBe(digest(request.rawBody));
      expect(request.headers['x-sentry-hook-signature']).toBe(digest(JSON.stringify(JSON.parse(request.rawBody))));
      expect(verifySignature(request.rawBody, request.headers['x-servicehook-signature'], hook.secret)).toBe(true);
      expect(request.headers['x-servicehook-guid']).toBe(hook.id);
      expect(Number(request.headers['x-servicehook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(request.headers['webhook-signature']).toMatch(/^v1,/);
      expect(request.headers['content-type']).toBe('application/json');

      const payload = JSON.parse(request.rawBody);
      const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=')).body.filter((i: { title: string }) =>
        i.title.startsWith('TypeError'),
      );
      expect(Object.keys(payload).sort()).toEqual(['culprit', 'event', 'id', 'message', 'project', 'project_name', 'triggering_rules', 'url'].sort());
      expect(payload).toMatchObject({
        id: request.headers['webhook-id']!.toString().slice(4),
        project: 'web',
        project_name: expect.any(String),
        culprit: expect.stringContaining('chargeCard'),
        url: `${api.baseUrl}/organizations/acme/issues/${issue.id}/`,
        message: expect.stringContaining('Card declined for amount 300'),
        triggering_rules: [],
      });
      expect(Object.keys(payload.event).sort()).toEqual(['datetime', 'event_id', 'level', 'platform', 'tags']);
      expect(payload.event).toMatchObject({ level: 'error', platform: 'node', event_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(payload.event.datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(payload.event.tags).toEqual(
        expect.arrayContaining([
          ['feature', 'checkout'],
          ['level', 'error'],
          ['environment', 'e2e'],
          ['user', 'id:u-42'],
        ]),
      );
      // The same tags as the event API shows for the event.
      const stored = await api.request('GET', `/api/0/projects/acme/web/events/${payload.event.event_id}/`);
      expect(payload.event.tags).toEqual(stored.body.tags.map(({ key, value }: { key: string; value: string }) => [key, value]));

      const log = await until(
        () => deliveries(hook.id),
        (rows) => rows[0]?.status === 'delivered',
      );
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ id: payload.id, event: 'event.created', status: 'delivered', attempts: 1, lastStatusCode: 200 });
      expect(log[0].attemptLog[0]).toMatchObject({ statusCode: 200, error: null, response: { body: 'ok' } });
      expect(log[0].attemptLog[0].durationMs).toEqual(expect.any(Number));
      const metrics = await fetch(`${api.baseUrl}/metrics`).then((response) => response.text());
      expect(metrics).toMatch(/^webhook_attempts_total\{outcome="delivered"\} [1-9]/m);
      await removeHook(hook);
    });

    it('retries a receiver that answers 500, with the same webhook-id, and logs both attempts', async () => {
      receiver.on('/flaky', (attempt, _request, response) => response.writeHead(attempt === 0 ? 500 : 200).end(attempt === 0 ? 'boom' : 'ok'));
      const hook = await createHook('/flaky');
      await sendError('flaky receiver');
      const requests = await receiver.waitFor('/flaky', 2);
      expect(requests[0].headers['webhook-id']).toBe(requests[1].headers['webhook-id']);
      expect(requests[0].rawBody).toBe(requests[1].rawBody);
      expect(requests.every((request) => hasValidSignature(request, hook.secret))).toBe(true);
      const [delivery] = await until(
        () => deliveries(hook.id),
        (rows) => rows[0]?.status === 'delivered',
      );
      expect(delivery.attempts).toBe(2);
      expect(delivery.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([200, 500]);
      expect(delivery.attemptLog[1].response.body).toBe('boom');
      expect(await deliveries(hook.id, '?status=failed')).toEqual([]);
      await removeHook(hook);
    });

    it('times out a receiver that hangs and delivers on the retry', async () => {
      receiver.on('/hang', (attempt, _request, response) => (attempt === 0 ? receiver.hang(response) : answer(200)(attempt, _request, response)));
      const hook = await createHook('/hang');
      await sendError('hanging receiver');
      await receiver.waitFor('/hang', 2);
      const [delivery] = await until(
        () => deliveries(hook.id),
        (rows) => rows[0]?.status === 'delivered',
      );
      expect(delivery.attemptLog[1]).toMatchObject({ statusCode: null, error: 'timed out after 500 ms' });
      expect(delivery.attemptLog[1].durationMs).toBeGreaterThanOrEqual(450);
      expect(delivery.attemptLog[1].durationMs).toBeLessThan(2000);
      await removeHook(hook);
    });

    it('does not follow a redirect: a 3xx is a failure, retried until the schedule ends', async () => {
      receiver.on('/redirect', answer(302, { location: `${receiver.url}/redirect-target` }));
      const hook = await createHook('/redirect');
      await sendError('redirecting receiver');
      const [delivery] = await until(
        () => deliveries(hook.id),
        (rows) => rows[0]?.status === 'failed',
      );
      expect(receiver.to('/redirect')).toHaveLength(4);
      expect(receiver.to('/redirect-target')).toHaveLength(0);
      expect(delivery.attempts).toBe(4);
      expect(delivery.lastError).toMatch(/redirect \(302\) not followed; gave up after 4 attempts/);
      expect((await deliveries(hook.id, '?status=failed')).map((d: { id: string }) => d.id)).toEqual([delivery.id]);
      await removeHook(hook);
    });

    it('redelivers on request, under the same webhook-id', async () => {
      const hook = await createHook('/redeliver');
      await sendError('redelivered');
      await receiver.waitFor('/redeliver', 1);
      const [delivery] = await until(
        () => deliveries(hook.id),
        (rows) => rows[0]?.status === 'delivered',
      );
      const response = await api.request('POST', `${hooksPath}${hook.id}/deliveries/${delivery.id}/redeliver/`);
      expect(response.status).toBe(202);
      // Its log so far comes with it (newest first; the worker may already be sending it again).
      expect(response.body.id).toBe(delivery.id);
      expect(response.body.attemptLog.at(-1)).toEqual(delivery.attemptLog.at(-1));
      const requests = await receiver.waitFor('/redeliver', 2);
      expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
      expect((await api.request('POST', `${hooksPath}${hook.id}/deliveries/${'0'.repeat(32)}/redeliver/`)).status).toBe(404);
      await removeHook(hook);
    });

    it('disables a hook whose receiver answers 410 Gone, and records why', async () => {
      receiver.on('/gone', answer(410));
      const hook = await createHook('/gone');
      await sendError('gone receiver');
      const detail = await until(
        async () => (await api.request('GET', `${hooksPath}${hook.id}/`)).body,
        (body) => body.status === 'disabled',
      );
      expect(detail.disabledReason).toMatch(/410/);
      const [fact] = await api.app
        .get(Database)
        .query<{ data: { reason: string } }>(`SELECT data FROM event_store.events WHERE event_type = 'webhooks.ServiceHookDisabled' AND stream_id = $1`, [
          `service-hook-${hook.id}`,
        ]);
      expect(fact.data.reason).toMatch(/410/);
      await removeHook(hook);
    });

    it('sends each event to every subscribed hook of the project, and none to a hook for other events', async () => {
      const first = await createHook('/fan-1');
      const second = await createHook('/fan-2');
      const alertsOnly = await createHook('/alerts-only', ['event.alert']);
      await sendError('fan out');
      await receiver.waitFor('/fan-1', 1);
      await receiver.waitFor('/fan-2', 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.to('/alerts-only')).toHaveLength(0);
      expect(JSON.parse(receiver.to('/fan-1')[0].rawBody).id).not.toBe(JSON.parse(receiver.to('/fan-2')[0].rawBody).id);
      await Promise.all([first, second, alertsOnly].map(removeHook));
    });
  });

  it('sends event.alert, with the names of the rules that fired, only to hooks subscribed to it', async () => {
    const alerts = await createHook('/alert', ['event.alert']);
    const created = await createHook('/created-only', ['event.created']);
    const eventId = await sendError('alerting error');
    const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=alerting')).body;
    await receiver.waitFor('/created-only', 1);
    const queued = await api.app.get(Database).transaction((tx) =>
      api.app.get(ServiceHookOutbox).enqueue(tx, 'event.alert', [
        {
          cause: `rule-fire-${eventId}`,
          projectId,
          triggeringRules: ['High error rate', 'New issue in checkout'],
          source: {
            issueId: issue.id,
            culprit: issue.culprit,
            message: 'alerting error',
            eventId,
            level: 'error',
            platform: 'node',
            tags: [['region', 'eu']],
            datetime: new Date().toISOString(),
          },
        },
      ]),
    );
    expect(queued).toBe(1);
    const [request] = await receiver.waitFor('/alert', 1);
    expect(hasValidSignature(request, alerts.secret)).toBe(true);
    expect(JSON.parse(request.rawBody)).toMatchObject({
      project: 'web',
      url: `${api.baseUrl}/organizations/acme/issues/${issue.id}/`,
      triggering_rules: ['High error rate', 'New issue in checkout'],
      event: { event_id: eventId, level: 'error', tags: [['region', 'eu']] },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.to('/created-only')).toHaveLength(1);
    await Promise.all([alerts, created].map(removeHook));
  });

  it('refuses to deliver to a loopback address without WEBHOOK_ALLOW_PRIVATE, and logs why', async () => {
    const strict = await startTestApp({ WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_RETRY_SCHEDULE: '0.2' });
    try {
      const keys = await strict.request('GET', '/api/0/projects/acme/web/keys/');
      const created = await strict.request('POST', hooksPath, { body: { url: `${receiver.url}/private`, events: ['event.created'] } });
      expect(created.status).toBe(201);
      await sendError('to a private address', strict, keys.body[0].public, String(keys.body[0].projectId));
      const [delivery] = await until(
        () => deliveries(created.body.id, '', strict),
        (rows) => rows[0]?.status === 'failed',
      );
      expect(delivery.attemptLog[0].error).toMatch(/refused: 127\.0\.0\.1 is a loopback address/);
      expect(receiver.to('/private')).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
