import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventStore } from '@faultline/event-store';
import { EventProcessing } from '@faultline/ingest';
import { InstallationEventTypes, installationStream } from '@faultline/integrations';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);
const APP_SIGNATURE = 'sentry-hook-signature';

/**
 * An integration builder's first day, as Sentry's docs walk it: a public app with a real receiver
 * on loopback, installed, authorized, verified and refreshed; the token calling the API; issue,
 * error and comment webhooks; an external issue link; the uninstall. Every webhook is checked the
 * two ways receivers in the wild check them: over the raw body, and over JSON.stringify(JSON.parse(body)).
 */
describe('integration platform', () => {
  let api: TestApp;
  const receiver = new WebhookReceiver();
  let dsn: string;
  let clientId: string;
  let clientSecret: string;
  let appSlug: string;
  let installationUuid: string;
  let otherIssueId: string;

  beforeAll(async () => {
    await receiver.start();
    api = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_APP_TIMEOUT_MS: '2000', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;

    // Another organization with an issue of its own: the installation's token must not reach it.
    expect((await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } })).status).toBe(201);
    expect((await api.request('POST', '/api/0/organizations/initech/teams/', { body: { slug: 'ops' } })).status).toBe(201);
    const project = await api.request('POST', '/api/0/teams/initech/ops/projects/', { body: { name: 'Billing', slug: 'billing' } });
    expect(project.status).toBe(201);
    const otherKeys = await api.request('GET', '/api/0/projects/initech/billing/keys/');
    await sendStoreEvent(String(project.body.id), otherKeys.body[0].public, 'initech failure');
    const issues = await api.request('GET', '/api/0/organizations/initech/issues/?query=');
    otherIssueId = String(issues.body[0].id);
  });

  afterAll(async () => {
    await api?.close();
    await receiver.close();
  });

  async function sendStoreEvent(projectId: string, key: string, message: string): Promise<void> {
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', message }),
    });
    expect(response.status).toBe(200);
    await api.app.get(EventProcessing).drain();
  }

  /** Waits for the first webhook with this action and resource after `seen` requests, and checks its signature both ways. */
  async function webhook(eventType: string, seen = 0): Promise<{ body: any; request: ReceivedWebhook }> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const request = receiver
        .to('/hooks')
        .slice(seen)
        .find((candidate) => {
          const body = JSON.parse(candidate.rawBody);
          return `${candidate.headers['sentry-hook-resource']}.${body.action}` === eventType;
        });
      if (request) {
        const expected = request.headers[APP_SIGNATURE];
        expect(createHmac('sha256', clientSecret).update(request.rawBody).digest('hex')).toBe(expected);
        expect(
          createHmac('sha256', clientSecret)
            .update(JSON.stringify(JSON.parse(request.rawBody)))
            .digest('hex'),
        ).toBe(expected);
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number(request.headers['sentry-hook-timestamp'])).toBeGreaterThan(1_700_000_000);
        const body = JSON.parse(request.rawBody);
        expect(body.installation).toEqual({ uuid: installationUuid });
        return { body, request };
      }
      if (Date.now() > deadline)
        throw new Error(
          `no ${eventType} webhook; received ${receiver
            .to('/hooks')
            .map((r) => r.headers['sentry-hook-resource'] + '.' + JSON.parse(r.rawBody).action)
            .join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const authorize = (body: Record<string, unknown>) =>
    api.request('POST', `/api/0/sentry-app-installations/${installationUuid}/authorizations/`, { token: null, body });

  it('takes a public app from creation to uninstall, with every webhook signed', async () => {
    // 1. The builder creates a public app in developer settings.
    const created = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Ticket Bridge',
        organization: 'acme',
        isInternal: false,
        webhookUrl: `${receiver.url}/hooks`,
        redirectUrl: 'https://tickets.example.com/setup',
        verifyInstall: true,
        scopes: ['org:read', 'project:read', 'event:write'],
        events: ['issue', 'error', 'comment'],
        webhookHeaders: ['X-Bridge-Tenant: acme'],
        schema: { elements: [{ type: 'issue-link', create: { uri: '/create', required_fields: [] }, link: { uri: '/link', required_fields: [] } }] },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'ticket-bridge', status: 'unpublished', isInternal: false, events: ['comment', 'error', 'issue'] });
    ({ clientId, clientSecret, slug: appSlug } = created.body);
    expect(clientSecret).toMatch(/^[0-9a-f]{64}$/);
    receiver.setSecret('/hooks', clientSecret, APP_SIGNATURE);

    // Unpublished: another organization cannot install it.
    expect((await api.request('POST', '/api/0/organizations/initech/sentry-app-installations/', { body: { slug: appSlug } })).status).toBe(404);

    // 2. Installing sends installation.created with the grant code.
    const installed = await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { body: { slug: appSlug } });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({ app: { slug: appSlug, name: 'Ticket Bridge' }, organization: { slug: 'acme' }, status: 'pending' });
    installationUuid = installed.body.uuid;
    const list = await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    expect(list.body).toEqual([
      {
        app: { uuid: created.body.uuid, slug: appSlug, name: 'Ticket Bridge', sentryAppId: expect.any(Number) },
        organization: { slug: 'acme' },
        uuid: installationUuid,
        status: 'pending',
      },
    ]);

    const installationCreated = await webhook('installation.created');
    expect(installationCreated.body.data.installation).toMatchObject({
      uuid: installationUuid,
      status: 'pending',
      app: { slug: appSlug },
      organization: { slug: 'acme' },
    });
    expect(installationCreated.body.actor).toMatchObject({ type: 'user' });
    expect(installationCreated.request.headers['x-bridge-tenant']).toBe('acme');
    const code = installationCreated.body.data.installation.code as string;
    expect(code).toBe(installed.body.code);

    // 3. The code is exchanged for a token, once.
    expect(await authorize({ grant_type: 'password', code, client_id: clientId, client_secret: clientSecret })).toMatchObject({
      status: 403,
      body: { detail: 'Invalid grant_type' },
    });
    expect(await authorize({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: 'wrong' })).toMatchObject({
      status: 401,
      body: { detail: 'Invalid Client ID / Secret pair' },
    });
    expect((await authorize({ grant_type: 'authorization_code', code: 'not-the-code', client_id: clientId, client_secret: clientSecret })).status).toBe(401);
    const exchanged = await authorize({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret });
    expect(exchanged.status).toBe(201);
    expect(exchanged.body.token).toMatch(/^sntryi_[0-9a-f]{64}$/);
    expect(exchanged.body.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    expect(exchanged.body.scopes).toEqual(['event:write', 'org:read', 'project:read']);
    const lifetime = Date.parse(exchanged.body.expiresAt) - Date.parse(exchanged.body.dateCreated);
    expect(Math.round(lifetime / 3_600_000)).toBe(8);
    expect((await authorize({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret })).status).toBe(401);

    // 4. The app verifies the install with its token.
    const verified = await api.request('PUT', `/api/0/sentry-app-installations/${installationUuid}/`, {
      token: exchanged.body.token,
      body: { status: 'installed' },
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ uuid: installationUuid, status: 'installed', app: { slug: appSlug } });

    // 5. A refresh replaces the token: the old one answers 401 at once.
    const refreshed = await authorize({
      grant_type: 'refresh_token',
      refresh_token: exchanged.body.refreshToken,
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(refreshed.status).toBe(201);
    expect(refreshed.body.token).not.toBe(exchanged.body.token);
    expect((await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/', { token: exchanged.body.token })).status).toBe(401);
    expect(
      (await authorize({ grant_type: 'refresh_token', refresh_token: exchanged.body.refreshToken, client_id: clientId, client_secret: clientSecret })).status,
    ).toBe(401);
    const token = refreshed.body.token as string;

    // 6. The token reaches its organization with the app's scopes, and nothing else.
    expect((await api.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(200);
    expect((await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/', { token })).status).toBe(200);
    expect((await api.request('POST', '/api/0/projects/acme/web/keys/', { token, body: { name: 'x' } })).status).toBe(403);
    expect((await api.request('DELETE', `/api/0/sentry-app-installations/${installationUuid}/`, { token })).status).toBe(403);
    expect((await api.request('GET', '/api/0/projects/initech/billing/', { token })).status).toBe(404);
    expect((await api.request('GET', `/api/0/organizations/initech/issues/${otherIssueId}/`, { token })).status).toBe(404);

    // 7. A new SDK error: issue.created with every field of the spec, and error.created.
    const seenBefore = receiver.to('/hooks').length;
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'error-only'], { timeout: 30_000 });
    const issueCreated = await webhook('issue.created', seenBefore);
    const issue = issueCreated.body.data.issue;
    expect(issue).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      shortId: expect.stringMatching(/^WEB-\d+$/),
      title: expect.stringContaining('TypeError'),
      culprit: expect.any(String),
      level: 'error',
      status: 'unresolved',
      count: 1,
      project: { id: expect.stringMatching(/^\d+$/), name: expect.any(String), slug: 'web' },
    });
    expect(new Date(issue.firstSeen).toISOString()).toBe(issue.firstSeen);
    expect(new Date(issue.lastSeen).toISOString()).toBe(issue.lastSeen);
    expect(issueCreated.body.actor).toEqual({ type: 'application', id: 'sentry', name: 'Sentry' });
    const errorCreated = await webhook('error.created', seenBefore);
    expect(errorCreated.body.data.error).toMatchObject({ issue_id: issue.id, level: 'error' });

    // 8. Resolving the issue sends issue.resolved, with the user who did it.
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issue.id}/`, { body: { status: 'resolved' } })).status).toBe(200);
    const resolved = await webhook('issue.resolved', seenBefore);
    expect(resolved.body.data.issue).toMatchObject({ id: issue.id, status: 'resolved' });
    expect(resolved.body.actor).toMatchObject({ type: 'user' });

    // 9. A comment sends comment.created.
    const comment = await api.request('POST', `/api/0/organizations/acme/issues/${issue.id}/comments/`, { body: { text: 'Filed upstream' } });
    expect(comment.status).toBe(201);
    const commented = await webhook('comment.created', seenBefore);
    expect(commented.body.data).toMatchObject({ issue_id: Number(issue.id), comment: 'Filed upstream', project_slug: 'web' });

    // 10. The app links its ticket to the issue; the link shows on the issue.
    const linksPath = `/api/0/sentry-app-installations/${installationUuid}/external-issues/`;
    const ticket = { issueId: Number(issue.id), webUrl: 'https://tickets.example.com/T-7', project: 'OPS', identifier: 'T-7' };
    expect(await api.request('POST', linksPath, { token, body: { ...ticket, issueId: 'seven' } })).toMatchObject({
      status: 400,
      body: { detail: 'issueId is required, and must be an integer' },
    });
    expect((await api.request('POST', linksPath, { token, body: { ...ticket, issueId: Number(otherIssueId) } })).status).toBe(404);
    const linked = await api.request('POST', linksPath, { token, body: ticket });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      issueId: issue.id,
      serviceType: appSlug,
      displayName: 'OPS#T-7',
      webUrl: ticket.webUrl,
      project: 'OPS',
      identifier: 'T-7',
    });
    const relinked = await api.request('POST', linksPath, { token, body: { ...ticket, webUrl: 'https://tickets.example.com/T-8', identifier: 'T-8' } });
    expect(relinked.body).toMatchObject({ id: linked.body.id, identifier: 'T-8' });
    expect((await api.request('GET', linksPath, { token })).body).toEqual([relinked.body]);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/external-issues/`)).body).toEqual([relinked.body]);
    const detail = await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`);
    expect(detail.body.externalIssues).toEqual([relinked.body]);

    // 11. The request log shows what was sent.
    const requests = await api.request('GET', `/api/0/sentry-apps/${appSlug}/requests/`);
    expect(requests.status).toBe(200);
    expect(requests.body.map((entry: { eventType: string }) => entry.eventType)).toEqual(
      expect.arrayContaining(['installation.created', 'issue.created', 'issue.resolved', 'comment.created']),
    );
    expect(requests.body[0]).toMatchObject({
      webhookUrl: `${receiver.url}/hooks`,
      sentryAppSlug: appSlug,
      responseCode: 200,
      organization: { slug: 'acme', name: expect.any(String) },
    });

    // 12. Uninstalling sends installation.deleted and revokes the token.
    expect((await api.request('DELETE', `/api/0/sentry-app-installations/${installationUuid}/`)).status).toBe(204);
    const deleted = await webhook('installation.deleted', seenBefore);
    expect(deleted.body.data.installation).toMatchObject({ uuid: installationUuid, app: { slug: appSlug } });
    expect((await api.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(401);
    expect((await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/')).body).toEqual([]);

    // 13. The stream tells the whole story, and the table shows where it ended.
    const database = api.app.get(Database);
    const history = await api.app.get(EventStore).readStream(database, installationStream(installationUuid));
    expect(history.map((event) => event.type)).toEqual([
      InstallationEventTypes.InstallationCreated,
      InstallationEventTypes.InstallationTokenIssued,
      InstallationEventTypes.InstallationVerified,
      InstallationEventTypes.InstallationTokenRefreshed,
      InstallationEventTypes.InstallationDeleted,
    ]);
    const [row] = await database.query(`SELECT status, token_ids, version FROM integrations.sentry_app_installations WHERE uuid = $1`, [installationUuid]);
    expect(row).toEqual({ status: 'deleted', token_ids: [], version: history.length });
    expect(history[4].data).toMatchObject({ revokedTokenIds: [refreshed.body.id] });
  });

  it('publishes a public app once an instance administrator approves it', async () => {
    const created = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Pager', organization: 'acme', webhookUrl: `${receiver.url}/pager`, scopes: ['event:read'], events: ['issue'] },
    });
    expect(created.status).toBe(201);
    // Installing grants the app's scopes there: the installer holds them.
    const initechAdmin = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'admin', scopes: ['org:admin', 'event:read'] },
    });
    const outsider = initechAdmin.body.token as string;
    const published = () => api.request('GET', '/api/0/sentry-apps/', { token: outsider });

    expect((await published()).body.map((app: { slug: string }) => app.slug)).not.toContain('pager');
    expect((await api.request('GET', '/api/0/sentry-apps/pager/', { token: outsider })).status).toBe(404);
    expect((await api.request('POST', '/api/0/sentry-apps/pager/publish-request/', { token: outsider })).status).toBe(404);

    expect((await api.request('POST', '/api/0/sentry-apps/pager/publish-request/')).status).toBe(201);
    expect((await api.request('GET', '/api/0/sentry-apps/pager/')).body.status).toBe('publish_request_inprogress');
    expect((await api.request('GET', '/api/0/sentry-apps/?status=publish_request_inprogress', { token: outsider })).status).toBe(403);
    expect((await api.request('GET', '/api/0/sentry-apps/?status=publish_request_inprogress')).body.map((app: { slug: string }) => app.slug)).toEqual([
      'pager',
    ]);

    // The bootstrap user is the instance administrator.
    const approved = await api.request('PUT', '/api/0/sentry-apps/pager/', { body: { status: 'published' } });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('published');

    const visible = await api.request('GET', '/api/0/sentry-apps/pager/', { token: outsider });
    expect(visible.status).toBe(200);
    expect(visible.body.clientSecret).toBeNull();
    expect((await published()).body.map((app: { slug: string }) => app.slug)).toContain('pager');
    const installed = await api.request('POST', '/api/0/organizations/initech/sentry-app-installations/', { token: outsider, body: { slug: 'pager' } });
    expect(installed.status).toBe(201);
    expect((await api.request('POST', '/api/0/organizations/initech/sentry-app-installations/', { token: outsider, body: { slug: 'pager' } })).status).toBe(
      409,
    );
  });

  it('mints tokens for an internal app, installed on its organization when created', async () => {
    const created = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Deploy Bot', organization: 'acme', isInternal: true, scopes: ['project:read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('internal');
    const installations = await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    expect(installations.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ app: expect.objectContaining({ slug: 'deploy-bot' }), status: 'installed' })]),
    );
    const minted = await api.request('POST', '/api/0/sentry-apps/deploy-bot/api-tokens/');
    expect(minted.status).toBe(201);
    expect(minted.body.token).toMatch(/^sntryi_/);
    expect((await api.request('GET', '/api/0/projects/acme/web/', { token: minted.body.token })).status).toBe(200);
    expect((await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/', { token: minted.body.token })).status).toBe(403);
    expect((await api.request('POST', `/api/0/sentry-apps/ticket-bridge/api-tokens/`)).status).toBe(403);
    const listed = await api.request('GET', '/api/0/sentry-apps/deploy-bot/api-tokens/');
    expect(listed.body).toEqual([
      expect.objectContaining({ id: minted.body.id, tokenLastCharacters: minted.body.token.slice(-4), scopes: ['project:read'], expiresAt: null }),
    ]);
    expect((await api.request('DELETE', `/api/0/sentry-apps/deploy-bot/api-tokens/${minted.body.id}/`)).status).toBe(204);
    expect((await api.request('GET', '/api/0/projects/acme/web/', { token: minted.body.token })).status).toBe(401);
    expect((await api.request('DELETE', `/api/0/sentry-apps/deploy-bot/api-tokens/${minted.body.id}/`)).status).toBe(404);
    expect((await api.request('GET', '/api/0/sentry-apps/deploy-bot/api-tokens/')).body).toEqual([]);
  });

  /** An org token of acme holding only `scopes`. */
  const acmeToken = async (...scopes: string[]): Promise<string> => {
    const created = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: scopes.join(' '), scopes } });
    expect(created.status).toBe(201);
    return created.body.token;
  };

  it('keeps an app, and every token made from it, within what the caller defining, installing or minting it holds', async () => {
    const writer = await acmeToken('org:write');
    const refused = await api.request('POST', '/api/0/sentry-apps/', {
      token: writer,
      body: { name: 'Escalator', organization: 'acme', isInternal: true, scopes: ['org:admin', 'member:admin'] },
    });
    expect(refused).toMatchObject({ status: 403, body: { detail: expect.stringContaining('member:admin') } });
    expect((await api.request('GET', '/api/0/sentry-apps/escalator/')).status).toBe(404);

    const reader = await api.request('POST', '/api/0/sentry-apps/', {
      token: writer,
      body: { name: 'Reader Bot', organization: 'acme', isInternal: true, scopes: ['org:read'] },
    });
    expect(reader.status).toBe(201);
    expect((await api.request('PUT', '/api/0/sentry-apps/reader-bot/', { token: writer, body: { scopes: ['org:read', 'project:admin'] } })).status).toBe(403);
    expect((await api.request('GET', '/api/0/sentry-apps/reader-bot/')).body.scopes).toEqual(['org:read']);

    // An app an owner defined: a narrower manager edits it without widening it, and cannot mint its token.
    const admin = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Admin Bot', organization: 'acme', isInternal: true, scopes: ['org:admin', 'member:admin'] },
    });
    expect(admin.status).toBe(201);
    expect(
      (await api.request('PUT', '/api/0/sentry-apps/admin-bot/', { token: writer, body: { name: 'Admin Bot 2', scopes: ['member:admin', 'org:admin'] } }))
        .status,
    ).toBe(200);
    expect(await api.request('POST', '/api/0/sentry-apps/admin-bot/api-tokens/', { token: writer })).toMatchObject({
      status: 403,
      body: { detail: expect.stringContaining('You cannot grant scopes you do not have') },
    });
    expect((await api.request('GET', '/api/0/sentry-apps/admin-bot/api-tokens/')).body).toEqual([]);
    const minted = await api.request('POST', '/api/0/sentry-apps/admin-bot/api-tokens/');
    expect(minted).toMatchObject({ status: 201, body: { scopes: ['member:admin', 'org:admin'] } });

    // Installing grants the app's scopes in the organization: an installer without them cannot.
    const broad = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Broad', organization: 'acme', webhookUrl: `${receiver.url}/broad`, verifyInstall: false, scopes: ['member:admin'] },
    });
    expect(broad.status).toBe(201);
    const integrator = await acmeToken('org:integrations');
    expect((await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { token: integrator, body: { slug: 'broad' } })).status).toBe(403);
    expect(
      (await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/')).body.map((row: { app: { slug: string } }) => row.app.slug),
    ).not.toContain('broad');
  });

  it("keeps what an installation granted: a published app's scopes narrow its tokens at once and never widen them", async () => {
    const created = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Granted', organization: 'acme', webhookUrl: `${receiver.url}/granted`, verifyInstall: false, scopes: ['event:write', 'org:read'] },
    });
    expect(created.status).toBe(201);
    expect((await api.request('POST', '/api/0/sentry-apps/granted/publish-request/')).status).toBe(201);
    expect((await api.request('PUT', '/api/0/sentry-apps/granted/', { body: { status: 'published' } })).status).toBe(200);
    const initech = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'installer', scopes: ['org:admin', 'event:write'] },
    });
    const installed = await api.request('POST', '/api/0/organizations/initech/sentry-app-installations/', {
      token: initech.body.token,
      body: { slug: 'granted' },
    });
    expect(installed.status).toBe(201);
    const client = { client_id: created.body.clientId, client_secret: created.body.clientSecret };
    const authorized = await api.request('POST', `/api/0/sentry-app-installations/${installed.body.uuid}/authorizations/`, {
      token: null,
      body: { grant_type: 'authorization_code', code: installed.body.code, ...client },
    });
    expect(authorized.body.scopes).toEqual(['event:write', 'org:read']);

    // Widening would give every installer's organization more than it granted.
    expect(await api.request('PUT', '/api/0/sentry-apps/granted/', { body: { scopes: ['event:write', 'org:admin', 'org:read'] } })).toMatchObject({
      status: 400,
      body: { detail: 'Cannot update permissions on a published integration.' },
    });
    expect((await api.request('PUT', '/api/0/sentry-apps/granted/', { body: { scopes: ['member:read', 'org:read'] } })).status).toBe(400);
    expect((await api.request('GET', '/api/0/sentry-apps/granted/')).body.scopes).toEqual(['event:write', 'org:read']);

    // Narrowing applies to the live token too.
    expect((await api.request('PUT', '/api/0/sentry-apps/granted/', { body: { scopes: ['event:read', 'org:read'] } })).status).toBe(200);
    const token = authorized.body.token as string;
    expect((await api.request('GET', `/api/0/organizations/initech/issues/${otherIssueId}/`, { token })).status).toBe(200);
    expect((await api.request('PUT', `/api/0/organizations/initech/issues/${otherIssueId}/`, { token, body: { status: 'resolved' } })).status).toBe(403);
    const refreshed = await api.request('POST', `/api/0/sentry-app-installations/${installed.body.uuid}/authorizations/`, {
      token: null,
      body: { grant_type: 'refresh_token', refresh_token: authorized.body.refreshToken, ...client },
    });
    expect(refreshed.body.scopes).toEqual(['event:read', 'org:read']);
    const history = await api.app.get(EventStore).readStream(api.app.get(Database), installationStream(installed.body.uuid));
    expect(history.find((event) => event.type === InstallationEventTypes.InstallationScopesChanged)?.data).toMatchObject({
      scopes: ['event:read', 'org:read'],
    });
  });

  it("grants its own organization's installation what its managers give an unpublished app, for tokens issued after", async () => {
    expect(
      (await api.request('POST', '/api/0/sentry-apps/', { body: { name: 'Growing', organization: 'acme', isInternal: true, scopes: ['project:read'] } }))
        .status,
    ).toBe(201);
    const before = await api.request('POST', '/api/0/sentry-apps/growing/api-tokens/');
    expect((await api.request('PUT', '/api/0/sentry-apps/growing/', { body: { scopes: ['project:read', 'event:write'] } })).status).toBe(200);
    const after = await api.request('POST', '/api/0/sentry-apps/growing/api-tokens/');
    expect(after.body.scopes).toEqual(['event:write', 'project:read']);
    const listed = (await api.request('GET', '/api/0/sentry-apps/growing/api-tokens/')).body as Array<{ id: string; scopes: string[] }>;
    expect(listed.find((token) => token.id === before.body.id)?.scopes).toEqual(['project:read']);
  });

  it("shows an app's webhook header values, like its client secret, only to its organization's managers", async () => {
    const headers = ['Authorization: Bearer receiver-credential', 'X-Tenant: acme'];
    const masked = ['Authorization: **********', 'X-Tenant: **********'];
    const created = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Guarded',
        organization: 'acme',
        webhookUrl: `${receiver.url}/guarded`,
        verifyInstall: false,
        scopes: ['event:read'],
        webhookHeaders: headers,
      },
    });
    expect(created.body.webhookHeaders).toEqual(headers);
    expect((await api.request('POST', '/api/0/sentry-apps/guarded/publish-request/')).status).toBe(201);
    expect((await api.request('PUT', '/api/0/sentry-apps/guarded/', { body: { status: 'published' } })).body.webhookHeaders).toEqual(headers);

    const outsider = (await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', { body: { name: 'reader', scopes: ['org:read'] } })).body
      .token as string;
    const member = await acmeToken('org:read');
    const answers = [
      await api.request('GET', '/api/0/sentry-apps/guarded/', { token: outsider }),
      await api.request('GET', '/api/0/sentry-apps/guarded/', { token: member }),
    ];
    for (const answer of answers) expect(answer.body).toMatchObject({ webhookHeaders: masked, clientSecret: null });
    const listed = [
      ...(await api.request('GET', '/api/0/sentry-apps/', { token: outsider })).body,
      ...(await api.request('GET', '/api/0/sentry-apps/')).body,
      ...(await api.request('GET', '/api/0/organizations/acme/sentry-apps/', { token: member })).body,
    ].filter((app: { slug: string }) => app.slug === 'guarded');
    expect(listed.map((app: { webhookHeaders: string[] }) => app.webhookHeaders)).toEqual([masked, masked, masked]);
    expect(JSON.stringify(await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/', { token: member }))).not.toContain(
      'receiver-credential',
    );
    expect((await api.request('GET', '/api/0/sentry-apps/guarded/')).body.webhookHeaders).toEqual(headers);
    expect(
      (await api.request('GET', '/api/0/organizations/acme/sentry-apps/')).body.find((app: { slug: string }) => app.slug === 'guarded').webhookHeaders,
    ).toEqual(headers);

    // Writing back what a masked read answered keeps the credential the receiver checks.
    expect((await api.request('PUT', '/api/0/sentry-apps/guarded/', { body: { name: 'Guarded', webhookHeaders: masked } })).body.webhookHeaders).toEqual(
      headers,
    );
    expect((await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { body: { slug: 'guarded' } })).status).toBe(201);
    const [delivered] = await receiver.waitFor('/guarded', 1);
    expect(delivered.headers).toMatchObject({ authorization: 'Bearer receiver-credential', 'x-tenant': 'acme' });
  });

  it('calls an issue-link component: select options from the app, then a ticket created there and linked here', async () => {
    const tracker = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Tracker',
        organization: 'acme',
        webhookUrl: `${receiver.url}/tracker/hooks`,
        verifyInstall: false,
        scopes: ['event:read'],
        schema: {
          elements: [
            {
              type: 'issue-link',
              create: { uri: '/tracker/create', required_fields: [{ type: 'select', name: 'board', label: 'Board', uri: '/tracker/boards' }] },
              link: { uri: '/tracker/link', required_fields: [{ type: 'text', name: 'ticket', label: 'Ticket' }] },
            },
          ],
        },
      },
    });
    expect(tracker.status).toBe(201);
    const secret = tracker.body.clientSecret as string;
    const installed = await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { body: { slug: 'tracker' } });
    const uuid = installed.body.uuid as string;
    const issue = (await api.request('GET', '/api/0/organizations/acme/issues/?query=')).body[0];

    const json = (value: unknown) => (_n: number, _request: ReceivedWebhook, response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    // The fake app verifies every request's signature (over the empty body of a GET) before answering.
    receiver.on(
      '/tracker/boards',
      json([
        { label: 'Operations', value: 'ops', default: true },
        { label: 'Web', value: 'web' },
      ]),
    );
    receiver.setSecret('/tracker/boards', secret, 'sentry-app-signature');
    receiver.on('/tracker/create', json({ webUrl: 'https://tracker.example/OPS-1', project: 'OPS', identifier: 'OPS-1' }));
    receiver.setSecret('/tracker/create', secret, 'sentry-app-signature');

    const options = await api.request('GET', `/api/0/sentry-app-installations/${uuid}/external-requests/?uri=/tracker/boards&projectId=web&query=op`);
    expect(options.status).toBe(200);
    expect(options.body).toEqual({
      choices: [
        ['ops', 'Operations'],
        ['web', 'Web'],
      ],
      defaultValue: 'ops',
    });
    const [optionsRequest] = receiver.to('/tracker/boards');
    expect(optionsRequest.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.fromEntries(new URL(optionsRequest.url, receiver.url).searchParams)).toEqual({ installationId: uuid, projectSlug: 'web', query: 'op' });
    expect((await api.request('GET', `/api/0/sentry-app-installations/${uuid}/external-requests/?uri=/elsewhere`)).status).toBe(400);

    const actionsPath = `/api/0/organizations/acme/issues/${issue.id}/sentry-app-installations/${uuid}/external-issue-actions/`;
    const created = await api.request('POST', actionsPath, { body: { action: 'create', uri: '/tracker/create', board: 'ops', title: 'Checkout fails' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      issueId: String(issue.id),
      serviceType: 'tracker',
      displayName: 'OPS#OPS-1',
      webUrl: 'https://tracker.example/OPS-1',
    });
    const [createRequest] = receiver.to('/tracker/create');
    expect(JSON.parse(createRequest.rawBody)).toMatchObject({
      fields: { board: 'ops', title: 'Checkout fails' },
      issueId: Number(issue.id),
      installationId: uuid,
      project: { slug: 'web' },
      actor: { type: 'user' },
    });
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/external-issues/`)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ serviceType: 'tracker', displayName: 'OPS#OPS-1' })]),
    );
    // An app that answers without a ticket links nothing.
    receiver.on('/tracker/link', json({ nothing: true }));
    expect((await api.request('POST', actionsPath, { body: { action: 'link', uri: '/tracker/link', ticket: 'OPS-9' } })).status).toBe(400);
    expect((await api.request('POST', actionsPath, { body: { action: 'delete', uri: '/tracker/link' } })).status).toBe(400);
  });

  it("retries an app's 5xx, not its 4xx, and logs every request", async () => {
    const flaky = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Flaky', organization: 'acme', webhookUrl: `${receiver.url}/flaky`, verifyInstall: false, scopes: ['event:read'], events: ['comment'] },
    });
    receiver.setSecret('/flaky', flaky.body.clientSecret, APP_SIGNATURE);
    receiver.on('/flaky', (n, request, response) => {
      const resource = request.headers['sentry-hook-resource'];
      if (resource === 'installation' && n === 0) response.writeHead(500).end('try later');
      else if (resource === 'comment') response.writeHead(400).end('unknown comment');
      else response.writeHead(200).end('ok');
    });
    await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { body: { slug: 'flaky' } });
    await receiver.waitFor('/flaky', 2);
    const issue = (await api.request('GET', '/api/0/organizations/acme/issues/?query=')).body[0];
    await api.request('POST', `/api/0/organizations/acme/issues/${issue.id}/comments/`, { body: { text: 'for flaky' } });
    await receiver.waitFor('/flaky', 3);

    const logPath = '/api/0/sentry-apps/flaky/requests/';
    let log: Array<Record<string, any>> = [];
    for (const deadline = Date.now() + 10_000; log.length < 3; await new Promise((resolve) => setTimeout(resolve, 25))) {
      if (Date.now() > deadline) throw new Error(`request log: ${JSON.stringify(log)}`);
      log = (await api.request('GET', logPath)).body;
    }
    const byType = (type: string) => log.filter((entry) => entry.eventType === type);
    expect(byType('installation.created').map((entry) => entry.responseCode)).toEqual([200, 500]);
    expect(byType('installation.created')[1]).toMatchObject({ responseBody: 'try later', requestBody: expect.stringContaining('"action":"created"') });
    expect(byType('installation.created')[0]).not.toHaveProperty('requestBody');
    expect(byType('comment.created')).toEqual([
      expect.objectContaining({
        responseCode: 400,
        responseBody: 'unknown comment',
        sentryAppSlug: 'flaky',
        organization: { name: expect.any(String), slug: 'acme' },
      }),
    ]);
    expect((await api.request('GET', `${logPath}?errorsOnly=true`)).body.map((entry: { responseCode: number }) => entry.responseCode).sort()).toEqual([
      400, 500,
    ]);
    expect((await api.request('GET', `${logPath}?eventType=comment.created`)).body).toHaveLength(1);
    expect((await api.request('GET', `${logPath}?eventType=nonsense`)).status).toBe(400);
    // Settled without a retry: a retried delivery would still be pending.
    const [comment] = await api.app
      .get(Database)
      .query(`SELECT status, attempts FROM webhooks.webhook_deliveries WHERE event_type = 'comment.created' AND body LIKE '%for flaky%'`);
    expect(comment).toEqual({ status: 'failed', attempts: 1 });
  });

  it('answers bad input with 4xx and changes nothing', async () => {
    expect((await api.request('POST', '/api/0/sentry-apps/', { body: { name: 'X', organization: 'acme', webhookUrl: 'ftp://x', scopes: [] } })).status).toBe(
      400,
    );
    expect(
      await api.request('POST', '/api/0/sentry-apps/', {
        body: { name: 'X', organization: 'acme', webhookUrl: 'https://x.example', events: ['deploy'], scopes: ['event:read'] },
      }),
    ).toMatchObject({
      status: 400,
      body: { detail: 'Invalid event: deploy' },
    });
    expect(
      (
        await api.request('POST', '/api/0/sentry-apps/', {
          body: { name: 'X', organization: 'acme', webhookUrl: 'https://x.example', events: ['issue'], scopes: [] },
        })
      ).status,
    ).toBe(400);
    expect((await api.request('POST', '/api/0/sentry-apps/', { body: { name: 'X', organization: 'nowhere', webhookUrl: 'https://x.example' } })).status).toBe(
      404,
    );
    expect(
      (
        await api.request('POST', '/api/0/sentry-apps/', {
          body: { name: 'X', organization: 'acme', webhookUrl: 'https://x.example', webhookHeaders: ['Content-Type: text/plain'] },
        })
      ).status,
    ).toBe(400);
    // Null where the app must keep a value: refused, not stored.
    for (const field of ['name', 'scopes', 'events', 'isInternal', 'schema']) {
      expect({ field, status: (await api.request('PUT', '/api/0/sentry-apps/reader-bot/', { body: { [field]: null } })).status }).toEqual({
        field,
        status: 400,
      });
    }
    expect((await api.request('GET', '/api/0/sentry-apps/reader-bot/')).body).toMatchObject({ name: 'Reader Bot', scopes: ['org:read'] });
    expect((await api.request('GET', '/api/0/sentry-apps/no-such-app/')).status).toBe(404);
    expect((await api.request('GET', '/api/0/sentry-app-installations/not-a-uuid/')).status).toBe(404);
    expect(
      (
        await api.request('POST', '/api/0/sentry-app-installations/00000000-0000-4000-8000-000000000000/authorizations/', {
          token: null,
          body: { grant_type: 'authorization_code' },
        })
      ).status,
    ).toBe(401);
    expect((await api.request('GET', '/api/0/organizations/acme/sentry-apps/', { token: null })).status).toBe(401);
    expect((await api.request('PUT', `/api/0/sentry-app-installations/${installationUuid}/`, { body: { status: 'installed' } })).status).toBe(404);
  });
});
