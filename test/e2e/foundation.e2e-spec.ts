import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('foundation API', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp();
  });

  afterAll(async () => {
    await api?.close();
  });

  describe('bootstrap and project detail', () => {
    it('serves the bootstrap project with the spec fields', async () => {
      const { status, body } = await api.request('GET', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ slug: 'web', name: 'web', platform: null, isBookmarked: false, status: 'active' });
      expect(typeof body.id).toBe('string');
      expect(body.dateCreated).toMatch(ISO_MS);
      expect(body.features).toEqual(['servicehooks']);
      expect(body.organization.slug).toBe('acme');
      expect(body.teams).toEqual([{ id: expect.any(String), slug: 'acme', name: 'acme' }]);

      const byId = await api.request('GET', `/api/0/projects/${body.organization.id}/${body.id}/`);
      expect(byId.status).toBe(200);
      expect(byId.body.slug).toBe('web');
    });

    it('answers without the trailing slash too', async () => {
      expect((await api.request('GET', `/api/0/projects/acme/web`)).status).toBe(200);
    });

    it('lists DSN keys in Sentry format built from PUBLIC_URL', async () => {
      const { status, body } = await api.request('GET', '/api/0/projects/acme/web/keys/');
      expect(status).toBe(200);
      expect(body).toHaveLength(1);
      const [key] = body;
      expect(key.id).toBe(key.public);
      expect(key.public).toMatch(/^[0-9a-f]{32}$/);
      expect(key.dsn.public).toBe(`${api.baseUrl.replace('://', `://${key.public}@`)}/${key.projectId}`);
    });
  });

  describe('authentication and scopes', () => {
    it('401 without a token and with an unknown one', async () => {
      expect((await api.request('GET', '/api/0/organizations/', { token: null })).body).toEqual({ detail: 'Authentication credentials were not provided.' });
      const unknown = await api.request('GET', '/api/0/organizations/', { token: 'nope' });
      expect(unknown.status).toBe(401);
      expect(unknown.body.detail).toBeDefined();
    });

    it('403 when the token lacks the scope; read does not imply write', async () => {
      const created = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['project:read', 'org:read'], name: 'reader' } });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^sntryu_/);
      const reader = created.body.token as string;
      expect((await api.request('GET', '/api/0/projects/acme/web/', { token: reader })).status).toBe(200);
      const put = await api.request('PUT', '/api/0/projects/acme/web/', { token: reader, body: { name: 'renamed' } });
      expect(put.status).toBe(403);
      expect((await api.request('POST', '/api/0/projects/acme/web/keys/', { token: reader, body: {} })).status).toBe(403);
      // A narrow token cannot mint a broader one.
      expect((await api.request('POST', '/api/0/api-tokens/', { token: reader, body: { scopes: ['org:admin'] } })).status).toBe(403);
    });

    it('admin implies write implies read', async () => {
      const { body } = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['project:admin', 'org:read'] } });
      expect((await api.request('GET', '/api/0/projects/acme/web/', { token: body.token })).status).toBe(200);
    });

    it('lists tokens with their last four characters and revokes them', async () => {
      const { body: created } = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['org:read'], name: 'short-lived' } });
      const list = await api.request('GET', '/api/0/api-tokens/');
      const listed = list.body.find((token: { id: string }) => token.id === created.id);
      expect(listed).toMatchObject({ name: 'short-lived', tokenLastCharacters: created.token.slice(-4), scopes: ['org:read'] });
      expect(listed.token).toBeUndefined();
      expect((await api.request('DELETE', `/api/0/api-tokens/${created.id}/`)).status).toBe(204);
      expect((await api.request('GET', '/api/0/organizations/', { token: created.token })).status).toBe(401);
      expect((await api.request('DELETE', `/api/0/api-tokens/${created.id}/`)).status).toBe(404);
    });

    it('organization tokens reach only their organization', async () => {
      const created = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ci', scopes: ['project:read', 'org:read'] } });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^sntrys_/);
      const orgToken = created.body.token as string;
      expect((await api.request('GET', '/api/0/projects/acme/web/', { token: orgToken })).status).toBe(200);
      await api.request('POST', '/api/0/organizations/', { body: { name: 'Other Org', slug: 'other-org' } });
      expect((await api.request('GET', '/api/0/organizations/other-org/', { token: orgToken })).status).toBe(404);
      const listed = await api.request('GET', '/api/0/organizations/', { token: orgToken });
      expect(listed.body.map((org: { slug: string }) => org.slug)).toEqual(['acme']);
      expect((await api.request('GET', '/api/0/organizations/acme/org-auth-tokens/')).body[0]).toMatchObject({
        name: 'ci',
        tokenLastCharacters: orgToken.slice(-4),
      });
    });
  });

  describe('organizations, teams and members', () => {
    it('creates an organization owned by its creator and lists it', async () => {
      const created = await api.request('POST', '/api/0/organizations/', { body: { name: 'Globex Corp' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ slug: 'globex-corp', name: 'Globex Corp', plan: 'free', role: 'owner' });
      expect(created.body.dateCreated).toMatch(ISO_MS);
      expect((await api.request('POST', '/api/0/organizations/', { body: { name: 'Dup', slug: 'globex-corp' } })).status).toBe(409);
      const members = await api.request('GET', '/api/0/organizations/globex-corp/members/');
      expect(members.body).toEqual([expect.objectContaining({ email: BOOTSTRAP.email, role: 'owner', orgRole: 'owner' })]);
      const member = await api.request('GET', `/api/0/organizations/globex-corp/members/${members.body[0].id}/`);
      expect(member.body.user.isSuperuser).toBe(true);
    });

    it('only an instance administrator changes the plan', async () => {
      const changed = await api.request('PUT', '/api/0/organizations/globex-corp/', { body: { plan: 'business', name: 'Globex' } });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ plan: 'business', name: 'Globex' });
      expect((await api.request('PUT', '/api/0/organizations/globex-corp/', { body: { plan: 'gold' } })).status).toBe(400);

      // An owner who is not an instance administrator: an organization token with org:admin.
      const { body: orgToken } = await api.request('POST', '/api/0/organizations/globex-corp/org-auth-tokens/', {
        body: { name: 'admin', scopes: ['org:admin'] },
      });
      const denied = await api.request('PUT', '/api/0/organizations/globex-corp/', { token: orgToken.token, body: { plan: 'enterprise' } });
      expect(denied.status).toBe(403);
      expect((await api.request('GET', '/api/0/organizations/globex-corp/')).body.plan).toBe('business');
    });

    it('creates teams and projects under them', async () => {
      const team = await api.request('POST', '/api/0/organizations/globex-corp/teams/', { body: { name: 'Backend Team' } });
      expect(team.status).toBe(201);
      expect(team.body).toMatchObject({ slug: 'backend-team', name: 'Backend Team', isMember: true, memberCount: 1 });
      expect((await api.request('GET', '/api/0/teams/globex-corp/backend-team/')).body.id).toBe(team.body.id);
      expect((await api.request('POST', '/api/0/organizations/globex-corp/teams/', { body: { slug: 'backend-team' } })).status).toBe(409);

      const project = await api.request('POST', '/api/0/teams/globex-corp/backend-team/projects/', { body: { name: 'API Server', platform: 'node' } });
      expect(project.status).toBe(201);
      expect(project.body).toMatchObject({ slug: 'api-server', name: 'API Server', platform: 'node', status: 'active', isMember: true });
      expect((await api.request('POST', '/api/0/teams/globex-corp/no-team/projects/', { body: { name: 'x' } })).status).toBe(404);
      expect((await api.request('POST', '/api/0/teams/globex-corp/backend-team/projects/', { body: { name: 'API Server' } })).status).toBe(409);
    });

    it('accepts concurrent changes to one organization', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => api.request('POST', '/api/0/organizations/globex-corp/teams/', { body: { slug: `parallel-${i}` } })),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    });

    it('updates, bookmarks and deletes projects; owners change features', async () => {
      const updated = await api.request('PUT', '/api/0/projects/globex-corp/api-server/', {
        body: { name: 'API', isBookmarked: true, features: ['servicehooks', 'similarity-indexing'] },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'API', isBookmarked: true, features: ['servicehooks', 'similarity-indexing'] });
      const cleared = await api.request('PUT', '/api/0/projects/globex-corp/api-server/', { body: { features: [] } });
      expect(cleared.body.features).toEqual([]);

      const key = await api.request('POST', '/api/0/projects/globex-corp/api-server/keys/', {
        body: { name: 'Backend', rateLimit: { count: 100, window: 60 } },
      });
      expect(key.status).toBe(201);
      expect(key.body).toMatchObject({ name: 'Backend', label: 'Backend', rateLimit: { count: 100, window: 60 }, isActive: true });

      expect((await api.request('DELETE', '/api/0/projects/globex-corp/api-server/')).status).toBe(204);
      expect((await api.request('GET', '/api/0/projects/globex-corp/api-server/')).status).toBe(404);
    });
  });

  describe('conventions', () => {
    it('paginates lists with Sentry Link headers and cursors', async () => {
      for (const name of ['p1', 'p2', 'p3']) {
        await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name } });
      }
      const first = await api.request('GET', '/api/0/organizations/acme/projects/?per_page=2');
      expect(first.body.map((p: { slug: string }) => p.slug)).toEqual(['p1', 'p2']);
      const link = first.headers.get('link') as string;
      expect(link).toContain('rel="previous"; results="false"; cursor="0:0:1"');
      expect(link).toContain('rel="next"; results="true"; cursor="0:2:0"');
      const next = /<([^>]+)>; rel="next"/.exec(link)![1];
      const second = await api.request('GET', next.slice(api.baseUrl.length));
      expect(second.body.map((p: { slug: string }) => p.slug)).toEqual(['p3', 'web']);
      expect(second.headers.get('link')).toContain('rel="next"; results="false"');
    });

    it('answers bad input with a 4xx and a detail, changing nothing', async () => {
      const before = (await api.request('GET', '/api/0/organizations/')).body.length;
      const cases = [
        { rawBody: '{"name": ', headers: { 'content-type': 'application/json' }, status: 400 },
        { body: { name: 42 }, status: 400, field: 'name' },
        { body: { name: 'ok', unexpected: true }, status: 400, field: 'unexpected' },
        { body: ['not', 'an', 'object'], status: 400 },
        { rawBody: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' }, status: 413 },
      ];
      for (const { status, field, ...request } of cases) {
        const response = await api.request('POST', '/api/0/organizations/', request);
        expect(response.status).toBe(status);
        expect(typeof response.body.detail).toBe('string');
        if (field) expect(response.body.errors[field]).toBeDefined();
      }
      const nul = { detail: 'The request contains a character that cannot be stored (U+0000 or a lone surrogate).' };
      expect(await api.request('GET', '/api/0/projects/acme/w%00b/')).toMatchObject({ status: 400, body: nul });
      expect(await api.request('POST', '/api/0/organizations/', { body: { name: 'a\u0000b' } })).toMatchObject({ status: 400, body: nul });
      expect(await api.request('GET', `/api/0/projects/acme/web/keys/${'k'.repeat(5000)}/`)).toMatchObject({
        status: 414,
        body: { detail: 'A part of the path is too long.' },
      });
      expect(await api.request('GET', '/api/0/projects/acme/%E0%A4%A/')).toMatchObject({ status: 400, body: { detail: 'Malformed URL.' } });
      expect((await api.request('GET', '/api/0/organizations/?cursor=bad')).body).toEqual({ detail: 'Invalid cursor parameter.' });
      expect((await api.request('GET', '/api/0/organizations/?per_page=1000')).body).toEqual({ detail: 'Invalid per_page parameter.' });
      expect((await api.request('GET', '/api/0/organizations/')).body.length).toBe(before);
    });

    it('answers unknown routes and objects with 404 and the Sentry detail', async () => {
      expect((await api.request('GET', '/api/0/nothing-here/')).body).toEqual({ detail: 'The requested resource does not exist' });
      expect((await api.request('GET', '/api/0/projects/acme/missing/')).status).toBe(404);
    });

    it('serves health, metrics and the OpenAPI document', async () => {
      expect((await api.request('GET', '/health/live', { token: null })).body).toEqual({ status: 'ok' });
      expect((await api.request('GET', '/health/ready', { token: null })).body).toEqual({ status: 'ok' });
      const metrics = await api.request('GET', '/metrics', { token: null });
      expect(metrics.body).toContain('http_requests_total{method="GET",route="/api/0/projects/:organization_id_or_slug/:project_id_or_slug"');
      expect(metrics.body).toContain('db_pool_connections_total');
      const docs = await api.request('GET', '/api/docs.json', { token: null });
      expect(Object.keys(docs.body.paths)).toContain('/api/0/projects/{organization_id_or_slug}/{project_id_or_slug}');
      expect((await api.request('GET', '/api/docs', { token: null })).status).toBe(200);
    });

    it('echoes a request id', async () => {
      const response = await api.request('GET', '/health/live', { token: null, headers: { 'x-request-id': 'abc-123' } });
      expect(response.headers.get('x-request-id')).toBe('abc-123');
    });
  });

  it('keeps its data across a restart', async () => {
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Durable', slug: 'durable' } });
    await api.restart();
    expect((await api.request('GET', '/api/0/organizations/durable/')).status).toBe(200);
    expect((await api.request('GET', '/api/0/projects/acme/web/')).status).toBe(200);
  });
});
