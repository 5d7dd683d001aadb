import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import { CreateApiTokenCommand, type CreatedApiToken, CreateOrganizationCommand, CreateUserCommand } from '@faultline/identity';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Walks every route of the OpenAPI document that names an organization, with tokens of a second
 * organization aimed at the first one's objects: each answers 404, and nothing changes.
 */
describe('tenancy', () => {
  let api: TestApp;
  const ids: Record<string, string> = {};
  const outsiderTokens: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestApp();
    const project = await api.request('GET', '/api/0/projects/acme/web/');
    const team = await api.request('GET', '/api/0/teams/acme/acme/');
    const members = await api.request('GET', '/api/0/organizations/acme/members/');
    const orgToken = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ci', scopes: ['org:read'] } });
    Object.assign(ids, {
      organization_id_or_slug: 'acme',
      project_id_or_slug: project.body.id,
      team_id_or_slug: team.body.slug,
      member_id: members.body[0].id,
      token_id: orgToken.body.id,
    });

    // A second organization whose owner is an ordinary user, not an instance administrator.
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    const orgAdmin = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'everything', scopes: ['org:admin', 'member:admin', 'team:admin', 'project:admin', 'event:admin', 'alerts:write'] },
    });
    outsiderTokens.organizationToken = orgAdmin.body.token;

    // The owner of a third organization: an ordinary user with a user token of every scope.
    const commands = api.app.get(CommandBus);
    const bob = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('bob@umbrella.test', 'Bob'));
    await commands.execute(new CreateOrganizationCommand('Umbrella', 'umbrella', bob.id));
    const bobToken = await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
      new CreateApiTokenCommand('user', { userId: bob.id }, 'bob', [...ALL_SCOPES], expandScopes(ALL_SCOPES)),
    );
    outsiderTokens.userToken = bobToken.plaintext;
  });

  afterAll(async () => {
    await api?.close();
  });

  it.each([['organizationToken'], ['userToken']])('answers 404 on every organization route for a %s of another organization', async (kind) => {
    const docs = await api.request('GET', '/api/docs.json', { token: null });
    const routes = Object.entries(docs.body.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.includes('{organization_id_or_slug}'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })));
    expect(routes.length).toBeGreaterThanOrEqual(15);

    const before = await snapshot();
    for (const { method, path } of routes) {
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1');
      for (const variant of [concrete, concrete.replace('/acme', `/${await orgId()}`)]) {
        const body = ['POST', 'PUT'].includes(method) ? { name: 'intruder', scopes: ['org:read'] } : undefined;
        const response = await api.request(method, variant, { token: outsiderTokens[kind], body });
        expect({ method, path: variant, status: response.status }).toEqual({ method, path: variant, status: 404 });
        // SCIM routes answer in SCIM's error format, with the same detail.
        const scim = path.includes('/scim/v2/') ? { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' } : {};
        expect(response.body).toEqual({ ...scim, detail: 'The requested resource does not exist' });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('does not let a user revoke or see another user\'s token', async () => {
    const mine = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['org:read'] } });
    expect((await api.request('DELETE', `/api/0/api-tokens/${mine.body.id}/`, { token: outsiderTokens.userToken })).status).toBe(404);
    const listed = await api.request('GET', '/api/0/api-tokens/', { token: outsiderTokens.userToken });
    expect(listed.body.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    // Organization tokens are not user tokens: they cannot manage user tokens at all.
    expect((await api.request('DELETE', `/api/0/api-tokens/${mine.body.id}/`, { token: outsiderTokens.organizationToken })).status).toBe(403);
    expect((await api.request('GET', '/api/0/organizations/', { token: mine.body.token })).status).toBe(200);
  });

  async function orgId(): Promise<string> {
    return (await api.request('GET', '/api/0/organizations/acme/')).body.id;
  }

  async function snapshot() {
    const [org, projects, teams, members, tokens] = await Promise.all([
      api.request('GET', '/api/0/organizations/acme/'),
      api.request('GET', '/api/0/organizations/acme/projects/'),
      api.request('GET', '/api/0/organizations/acme/teams/'),
      api.request('GET', '/api/0/organizations/acme/members/'),
      api.request('GET', '/api/0/organizations/acme/org-auth-tokens/'),
    ]);
    return [org.body, projects.body, teams.body, members.body, tokens.body.map((t: { id: string; name: string }) => [t.id, t.name])];
  }
});
