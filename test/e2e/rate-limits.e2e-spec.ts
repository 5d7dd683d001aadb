import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_ENVELOPE_LIMITS, parseEnvelope, SpikeProtectionEvaluation } from '@faultline/ingest';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { eventsProcessed } from '../support/events-processed';
import { SmtpReceiver, textPart } from '../support/smtp-receiver';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);
const FORWARDED = ['content-type', 'content-encoding', 'x-sentry-auth', 'user-agent'];
const ANSWERED = ['content-type', 'x-sentry-rate-limits', 'retry-after', 'x-sentry-error'];

interface Observed {
  readonly types: string[];
  readonly status: number;
  readonly rateLimits: string | null;
  readonly retryAfter: string | null;
}

/**
 * Rate limits per category as SDKs read them: the real @sentry/node SDK past a key's limit keeps
 * sending check-ins and sessions; an organization quota answers 429 with scope organization; spike
 * protection drops an organization's errors and mails its owners once.
 */
describe('rate limits and quotas per category', () => {
  const clock = new FixedClock(new Date('2026-11-22T12:20:00.000Z'));
  const smtp = new SmtpReceiver();
  let api: TestApp;
  let projectId: string;
  let publicKey: string;
  let proxy: Server;
  let proxyUrl: string;
  const observed: Observed[] = [];

  beforeAll(async () => {
    await smtp.start();
    api = await startTestApp(
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Faultline <errors@acme.test>',
        MAIL_RETRY_SCHEDULE: '0.5,0.5,0.5',
        SPIKE_PROTECTION_FLOOR: '5',
      },
      { clock },
    );
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
    // Between the SDK and the service: what arrives, and what the service answers.
    proxy = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        void (async () => {
          const answer = await fetch(`${api.baseUrl}${request.url}`, {
            method: request.method,
            headers: Object.fromEntries(FORWARDED.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : []))),
            body,
          });
          const encoded = request.headers['content-encoding'];
          const types = encoded ? [`(${encoded})`] : parseEnvelope(body, DEFAULT_ENVELOPE_LIMITS).items.map((item) => item.header.type);
          observed.push({
            types,
            status: answer.status,
            rateLimits: answer.headers.get('x-sentry-rate-limits'),
            retryAfter: answer.headers.get('retry-after'),
          });
          response.writeHead(
            answer.status,
            Object.fromEntries(
              ANSWERED.flatMap((name) => {
                const value = answer.headers.get(name);
                return value === null ? [] : [[name, value]];
              }),
            ),
          );
          response.end(Buffer.from(await answer.arrayBuffer()));
        })();
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await api?.close();
    await smtp.stop();
  });

  const envelope = (key: string, ...items: Array<[string, unknown]>) =>
    fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, {
      method: 'POST',
      body: [JSON.stringify({}), ...items.flatMap(([type, payload]) => [JSON.stringify({ type }), JSON.stringify(payload)])].join('\n'),
    });
  const checkIn = ['check_in', { check_in_id: 'a'.repeat(32), monitor_slug: 'nightly', status: 'ok' }] as [string, unknown];
  const session = ['session', { sid: 'b'.repeat(32), init: true, status: 'exited', started: '2026-11-22T12:00:00Z', attrs: { release: 'shop@2.0.0' } }] as [
    string,
    unknown,
  ];
  const error = (message: string) => ['event', { message, level: 'error' }] as [string, unknown];

  it("keeps the SDK's check-ins and sessions flowing while a key's rate limit drops its errors", async () => {
    const created = await api.request('POST', '/api/0/projects/acme/web/keys/', { body: { name: 'limited', rateLimit: { count: 2, window: 60 } } });
    const dsn = `http://${created.body.public}@${proxyUrl}/${projectId}`;
    await run(process.execPath, [join(__dirname, '..', 'support', 'rate-limited-client.cjs'), dsn, '4'], { timeout: 60_000 });

    const errors = observed.filter((request) => request.types.includes('event'));
    // Two errors within the limit, the third answered 429 naming only the error categories; the SDK sends no more errors.
    expect(errors.map((request) => request.status)).toEqual([200, 200, 429]);
    expect(errors[2].rateLimits).toBe(`${errors[2].retryAfter}:default;error;security:key:key_quota`);
    expect(Number(errors[2].retryAfter)).toBeGreaterThan(0);
    const others = observed.filter((request) => !request.types.includes('event'));
    expect(others.map((request) => [request.types, request.status])).toEqual([
      [['check_in'], 200],
      [['session'], 200],
    ]);

    // One envelope with errors, a check-in and a session: the errors dropped, the rest kept (200 and the header).
    const mixed = await envelope(created.body.public, error('one more'), checkIn, session);
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:default;error;security:key:key_quota$/);
    expect((await envelope(created.body.public, error('only errors'))).status).toBe(429);

    // Each dropped error is an outcome: counted as rejected in the project's stats.
    await eventsProcessed(api);
    const now = clock.now().getTime() / 1000;
    const rejected = await api.request('GET', `/api/0/projects/acme/web/stats/?stat=rejected&since=${now - 3600}&until=${now}&resolution=1h`);
    expect((rejected.body as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0)).toBe(3);
  });

  it('answers 429 with scope organization past an organization quota of a category, and only for it', async () => {
    expect((await api.request('PUT', '/api/0/organizations/acme/rate-limits/', { body: { quotas: { check_in: 'many' } } })).status).toBe(400);
    const set = await api.request('PUT', '/api/0/organizations/acme/rate-limits/', { body: { quotas: { check_in: 2 } } });
    expect(set.status).toBe(200);
    expect(set.body.quotas).toContainEqual({ category: 'check_in', limit: 2, organizationLimit: 2, instanceLimit: null });

    // Counted from the quota on (a category no quota covers is not counted): two within it, the third not.
    expect((await envelope(publicKey, checkIn)).status).toBe(200);
    expect((await envelope(publicKey, checkIn)).status).toBe(200);
    const refused = await envelope(publicKey, checkIn);
    expect(refused.status).toBe(429);
    // The hour's window ends at 13:00; the clock stands at 12:20.
    expect(refused.headers.get('x-sentry-rate-limits')).toBe('2400:monitor:organization:org_quota');
    expect(refused.headers.get('retry-after')).toBe('2400');
    const withError = await envelope(publicKey, error('still accepted'), checkIn);
    expect(withError.status).toBe(200);
    expect(withError.headers.get('x-sentry-rate-limits')).toBe('2400:monitor:organization:org_quota');
    // Sentry's HTTP check-in endpoint is held to the same quota.
    const overHttp = await fetch(`${api.baseUrl}/api/${projectId}/cron/nightly/${publicKey}/?status=ok`);
    expect(overHttp.status).toBe(429);
    expect(overHttp.headers.get('x-sentry-rate-limits')).toBe('2400:monitor:organization:org_quota');

    await api.request('PUT', '/api/0/organizations/acme/rate-limits/', { body: { quotas: { check_in: null } } });
    expect((await envelope(publicKey, checkIn)).status).toBe(200);
    expect((await fetch(`${api.baseUrl}/api/${projectId}/cron/nightly/${publicKey}/?status=ok`)).status).toBe(202);
  });

  it("drops an organization's errors during a spike, says so, and mails its owners once", async () => {
    const spikes = api.app.get(SpikeProtectionEvaluation);
    // Past the floor of 5 errors this hour: 3 accepted above, 3 more now.
    for (const n of [1, 2, 3]) expect((await envelope(publicKey, error(`spike ${n}`))).status).toBe(200);
    clock.advance(61_000);
    await spikes.evaluateDue();

    const refused = await envelope(publicKey, error('during the spike'), checkIn);
    expect(refused.status).toBe(200);
    expect(refused.headers.get('x-sentry-rate-limits')).toBe('2339:default;error;security:organization:spike_protection');
    const onlyErrors = await envelope(publicKey, error('during the spike'));
    expect(onlyErrors.status).toBe(429);
    expect(await onlyErrors.json()).toEqual({ detail: 'Spike protection is dropping the errors of this organization' });

    const state = await api.request('GET', '/api/0/organizations/acme/rate-limits/');
    expect(state.body.spikeProtection).toEqual({
      enabled: true,
      threshold: 5,
      active: true,
      startedAt: '2026-11-22T12:21:01.000Z',
      limitedUntil: '2026-11-22T13:00:00.000Z',
    });
    const [mail] = await smtp.waitFor(BOOTSTRAP.email, 1);
    expect(mail.raw).toMatch(/^Subject: Spike protection is dropping errors of acme/m);
    expect(textPart(mail.raw)).toContain('/settings/acme/rate-limits/');

    // Evaluated again while the spike goes on: no second mail. Turned off: errors are accepted at once.
    clock.advance(61_000);
    await spikes.evaluateDue();
    const off = await api.request('PUT', '/api/0/organizations/acme/rate-limits/', { body: { spikeProtection: false } });
    expect(off.body.spikeProtection).toMatchObject({ enabled: false, active: false });
    expect((await envelope(publicKey, error('after turning it off'))).status).toBe(200);
    const activations = await api.app.get(Database).query(`SELECT 1 FROM event_store.events WHERE event_type = 'ingest.SpikeProtectionActivated'`);
    expect(activations).toHaveLength(1);
    expect(smtp.to(BOOTSTRAP.email)).toHaveLength(1);
  });
});
