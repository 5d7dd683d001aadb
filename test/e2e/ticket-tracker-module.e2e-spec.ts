import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Database } from '@faultline/platform';
import { FakeTicketTracker } from '../support/fake-ticket-tracker';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);
const MODULE_PATH = join(__dirname, '..', '..', 'modules', 'ticket-tracker');
const TICKETS_ROUTE = '/api/0/organizations/{organization_id_or_slug}/issues/{issue_id}/tickets';

/**
 * The example module loaded from configuration, end to end: a real SDK error becomes an issue, the
 * module's durable subscriber queues a ticket, its worker opens it in a tracker over HTTP, and the
 * module's own route lists it, with the core's auth, tenancy, errors, pagination and OpenAPI.
 */
describe('the ticket tracker extension module', () => {
  let api: TestApp;
  const tracker = new FakeTicketTracker();
  let dsn: string;
  let projectId: string;
  let publicKey: string;

  beforeAll(async () => {
    await tracker.start();
    api = await startTestApp({
      FAULTLINE_MODULES: MODULE_PATH,
      TICKET_TRACKER_URL: tracker.url,
      TICKET_TRACKER_TOKEN: 'tracker-secret',
      TICKET_TRACKER_TIMEOUT_MS: '1000',
      TICKET_TRACKER_RETRY_SCHEDULE: '0.2',
    });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
  });

  afterAll(async () => {
    await api?.close();
    await tracker.close();
  });

  async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const processed = () => eventsProcessed(api);

  async function issueWithTitle(fragment: string): Promise<{ id: string; shortId: string }> {
    const issues = await api.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent(fragment)}`);
    expect(issues.status).toBe(200);
    const issue = issues.body.find((candidate: { title: string }) => candidate.title.includes(fragment));
    expect(issue).toBeDefined();
    return issue;
  }

  const tickets = (issueId: string) => api.request('GET', `/api/0/organizations/acme/issues/${issueId}/tickets/`);

  it('opens one ticket for a new issue from a real SDK error and lists it under the issue', async () => {
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'error-only'], { timeout: 30_000 });
    await processed();
    const issue = await issueWithTitle('Card declined');

    const [request] = await tracker.waitForRequests(1);
    expect(request.headers['idempotency-key']).toBe(`faultline-issue-${issue.id}`);
    expect(request.headers.authorization).toBe('Bearer tracker-secret');
    const body = JSON.parse(request.rawBody);
    expect(body).toMatchObject({
      title: expect.stringContaining(issue.shortId),
      issue: { id: issue.id, shortId: issue.shortId, projectId, url: expect.stringContaining(`/issues/${issue.id}/`) },
    });

    const listed = await until(
      () => tickets(issue.id),
      (response) => response.body?.[0]?.status === 'opened',
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        issueId: issue.id,
        shortId: issue.shortId,
        status: 'opened',
        externalId: 'TCK-1',
        url: 'https://tracker.example.com/browse/TCK-1',
        attempts: 1,
      }),
    ]);
    expect(listed.headers.get('link')).toContain('rel="next"; results="false"');
    // By short id too, as every issue route accepts.
    expect((await tickets(issue.shortId)).body).toHaveLength(1);
    expect(tracker.requests).toHaveLength(1);
  });

  it('gives its route the core authentication, scopes, tenancy and error format', async () => {
    const issue = await issueWithTitle('Card declined');
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tickets/`, { token: null })).status).toBe(401);
    const unknown = await tickets('999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: expect.any(String) });
    expect((await api.request('GET', `/api/0/organizations/elsewhere/issues/${issue.id}/tickets/`)).status).toBe(404);
    const bad = await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tickets/?status=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/status must be one of/);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tickets/?per_page=0`)).status).toBe(400);

    const created = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'no event scope', scopes: ['org:read'] } });
    expect(created.status).toBe(201);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/tickets/`, { token: created.body.token })).status).toBe(403);
  });

  it('documents its route in the OpenAPI document', async () => {
    const docs = await api.request('GET', '/api/docs.json', { token: null });
    expect(docs.status).toBe(200);
    const operation = docs.body.paths[TICKETS_ROUTE]?.get;
    expect(operation).toBeDefined();
    expect(operation.tags).toEqual(['Ticket tracker']);
    // Documented as the built-in issue routes are: the same security, parameters and responses.
    const builtIn = docs.body.paths['/api/0/organizations/{organization_id_or_slug}/issues/{issue_id}/events'].get;
    expect(operation.security).toEqual(builtIn.security);
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['issue_id', 'status']);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TicketResponse' } });
    expect(Object.keys(docs.body.components.schemas.TicketResponse.properties)).toEqual(expect.arrayContaining(['issueId', 'status', 'externalId', 'url']));
    expect((await api.request('GET', '/api/docs', { token: null })).status).toBe(200);
  });

  async function sendError(message: string): Promise<void> {
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', message }),
    });
    expect(response.status).toBe(200);
    await processed();
  }

  it('survives a restart in the middle without losing or repeating a ticket, and ignores redelivered events', async () => {
    const before = tracker.requests.length;
    // The tracker opens the ticket but its answer never arrives; the service restarts meanwhile.
    tracker.loseAnswers = 1;
    await sendError('Payment provider timed out for order 7');
    const issue = await issueWithTitle('Payment provider timed out');
    await tracker.waitForRequests(before + 1);
    await api.restart();

    const listed = await until(
      () => tickets(issue.id),
      (response) => response.body?.[0]?.status === 'opened',
    );
    const key = `faultline-issue-${issue.id}`;
    const calls = tracker.requests.slice(before);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((call) => call.headers['idempotency-key'] === key)).toBe(true);
    expect([...tracker.tickets.values()].filter((ticket) => ticket.key === key)).toHaveLength(1);
    expect(listed.body).toEqual([expect.objectContaining({ issueId: issue.id, status: 'opened', externalId: tracker.tickets.get(key)!.id })]);

    // Every IssueCreated delivered again (a subscriber rewound after a crash): nothing is re-sent.
    const database = api.app.get(Database);
    const requestsSoFar = tracker.requests.length;
    const [{ position }] = await database.query<{ position: string }>(
      "SELECT position FROM event_store.event_checkpoints WHERE subscriber = 'ticket-tracker.issue-created'",
    );
    expect(Number(position)).toBeGreaterThan(0);
    await database.execute("UPDATE event_store.event_checkpoints SET position = 0 WHERE subscriber = 'ticket-tracker.issue-created'");
    await api.restart();
    await until(
      async () =>
        (
          await api.app
            .get(Database)
            .query<{ position: string }>("SELECT position FROM event_store.event_checkpoints WHERE subscriber = 'ticket-tracker.issue-created'")
        )[0].position,
      (now) => now === position,
    );
    // And the restarted service still opens tickets for new issues.
    await sendError('Inventory service refused reservation 12');
    const next = await issueWithTitle('Inventory service refused');
    await until(
      () => tickets(next.id),
      (response) => response.body?.[0]?.status === 'opened',
    );
    expect(tracker.requests.slice(requestsSoFar).map((call) => call.headers['idempotency-key'])).toEqual([`faultline-issue-${next.id}`]);
    const [{ count }] = await api.app.get(Database).query<{ count: string }>('SELECT count(*) AS count FROM ticket_tracker.ticket_tracker_tickets');
    expect(Number(count)).toBe(3);
  });
});
