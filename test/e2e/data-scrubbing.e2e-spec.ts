import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** Server-side data scrubbing of what the official @sentry/node SDK sends, on by default and set through Sentry's API. */
describe('data scrubbing of SDK events', () => {
  let api: TestApp;
  let dsn: string;

  beforeAll(async () => {
    api = await startTestApp();
    dsn = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0].dsn.public;
  });

  afterAll(async () => {
    await api?.close();
  });

  /** Sends the `secrets` scenario and answers the stored event as the event API shows it. */
  async function sendSecrets(): Promise<Record<string, any>> {
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'secrets'], { timeout: 30_000 });
    await eventsProcessed(api);
    const [latest] = (await api.request('GET', '/api/0/projects/acme/web/events/?per_page=1')).body;
    return (await api.request('GET', `/api/0/projects/acme/web/events/${latest.id}/`)).body;
  }

  const entry = (event: Record<string, any>, type: string) => event.entries.find((found: { type: string }) => found.type === type);

  it('stores no password, token, session cookie or card number, and says where it filtered them', async () => {
    const project = (await api.request('GET', '/api/0/projects/acme/web/')).body;
    expect(project).toMatchObject({ dataScrubber: true, dataScrubberDefaults: true, sensitiveFields: [], safeFields: [], scrubIPAddresses: false });

    const event = await sendSecrets();
    expect(event.context).toMatchObject({ password: '[Filtered]', order: 'A-1001' });
    expect(event._meta.context.password).toEqual({ '': { rem: [['@password:filter', 's', 0, 10]], len: 7 } });

    const request = entry(event, 'request');
    expect(request.data.headers.find(([name]: [string]) => name.toLowerCase() === 'authorization')).toEqual([expect.any(String), '[Filtered]']);
    expect(request.data.cookies).toEqual([
      ['sessionid', '[Filtered]'],
      ['theme', 'dark'],
    ]);
    // (The SDK filters the Authorization header, cookies and query itself; the server filters what an SDK lets through.)
    expect(request.data.query).toEqual([
      ['step', '2'],
      ['api_key', '[Filtered]'],
    ]);
    expect(request.data.data).toEqual({ amount: 5, password: '[Filtered]' });
    const requestMeta = event._meta.entries[event.entries.indexOf(request)].data;
    expect(requestMeta.data.password['']).toEqual({ rem: [['@password:filter', 's', 0, 10]], len: 12 });

    const crumb = entry(event, 'breadcrumbs').data.values.find((value: { category: string }) => value.category === 'payment');
    expect(crumb.message).toBe('charging [Filtered]');
    const exception = entry(event, 'exception').data.values.at(-1);
    expect(exception.value).toBe('Payment failed for card [creditcard]');
    expect(event.title).toBe('Error: Payment failed for card [creditcard]');

    // Nothing kept holds the secrets: not the stored event, nor the facts webhooks, alerts, mail and chat are made from.
    const database = api.app.get(Database);
    const [kept] = await database.query<{ leaks: string }>(
      `SELECT (SELECT count(*) FROM issues.error_events WHERE data::text ~ '4111 1111|hunter2|sk_live_abc123|s3ss10n|k3y-in-query|pa55-in-body')
            + (SELECT count(*) FROM event_store.events WHERE data::text ~ '4111 1111|hunter2|sk_live_abc123|s3ss10n|k3y-in-query|pa55-in-body') AS leaks`,
    );
    expect(Number(kept.leaks)).toBe(0);
  });

  it('takes sensitive and safe fields from the project and requirements from the organization, with Sentry names', async () => {
    const updated = await api.request('PUT', '/api/0/projects/acme/web/', {
      body: { sensitiveFields: [' order ', 'order'], safeFields: ['password'], scrubIPAddresses: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ sensitiveFields: ['order'], safeFields: ['password'], scrubIPAddresses: true });

    let event = await sendSecrets();
    expect(event.context).toMatchObject({ password: 'hunter2', order: '[Filtered]' });
    expect(event._meta.context.order['']).toMatchObject({ rem: [['strip-fields', 's', 0, 10]] });

    // The project turns scrubbing off; the organization requires it, and adds a field of its own.
    expect((await api.request('PUT', '/api/0/projects/acme/web/', { body: { dataScrubber: false, safeFields: [] } })).status).toBe(200);
    const organization = await api.request('PUT', '/api/0/organizations/acme/', { body: { dataScrubber: true, sensitiveFields: ['attempt'] } });
    expect(organization.status).toBe(200);
    expect(organization.body).toMatchObject({ dataScrubber: true, dataScrubberDefaults: false, sensitiveFields: ['attempt'], scrubIPAddresses: false });
    expect((await api.request('GET', '/api/0/organizations/acme/')).body).toMatchObject({ dataScrubber: true, sensitiveFields: ['attempt'] });

    event = await sendSecrets();
    expect(event.context).toMatchObject({ password: '[Filtered]', order: '[Filtered]' });
  });

  it('refuses settings past their limits or of the wrong type, and changes nothing', async () => {
    const tooMany = await api.request('PUT', '/api/0/projects/acme/web/', {
      body: { sensitiveFields: Array.from({ length: 51 }, (_, index) => `field${index}`) },
    });
    expect(tooMany.status).toBe(400);
    const tooLong = await api.request('PUT', '/api/0/organizations/acme/', { body: { safeFields: ['x'.repeat(101)] } });
    expect(tooLong.status).toBe(400);
    expect((await api.request('PUT', '/api/0/projects/acme/web/', { body: { scrubIPAddresses: 'yes' } })).status).toBe(400);
    expect((await api.request('PUT', '/api/0/organizations/acme/', { body: { storeCrashReports: 7 } })).status).toBe(400);
    expect((await api.request('GET', '/api/0/projects/acme/web/')).body.sensitiveFields).toEqual(['order']);
  });
});
