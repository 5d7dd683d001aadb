import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import { CreateApiTokenCommand, type CreatedApiToken, CreateOrganizationCommand, CreateUserCommand, SetUserPasswordCommand } from '@faultline/identity';
import { enableScim } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Walks every route of the OpenAPI document that names an organization, with tokens of a second
 * organization aimed at the first one's objects: each answers 404, and nothing changes.
 */
describe('tenancy', () => {
  let api: TestApp;
  const ids: Record<string, string> = {};
  const outsiderTokens: Record<string, string> = {};
  /** A web session of the third organization's owner: its cookie and CSRF token. */
  const outsiderSession: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestApp();
    const project = await api.request('GET', '/api/0/projects/acme/web/');
    const team = await api.request('GET', '/api/0/teams/acme/acme/');
    const members = await api.request('GET', '/api/0/organizations/acme/members/');
    const orgToken = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ci', scopes: ['org:read'] } });
    const acmeApp = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Acme Bot', organization: 'acme', isInternal: true, scopes: ['project:read'] },
    });
    const installations = await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    const appToken = await api.request('POST', `/api/0/sentry-apps/${acmeApp.body.slug}/api-tokens/`);
    Object.assign(ids, {
      slug: acmeApp.body.slug,
      uuid: installations.body.find((i: { app: { slug: string } }) => i.app.slug === acmeApp.body.slug).uuid,
      organization_id_or_slug: 'acme',
      project_id_or_slug: project.body.id,
      team_id_or_slug: team.body.slug,
      member_id: members.body[0].id,
      token_id: orgToken.body.id,
      app_token_id: appToken.body.id,
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

    // An internal integration of the second organization, with every scope it can be given.
    const app = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Initech Bot',
        organization: 'initech',
        isInternal: true,
        scopes: ['org:admin', 'member:admin', 'team:admin', 'project:admin', 'event:admin', 'alerts:write'],
      },
    });
    const minted = await api.request('POST', `/api/0/sentry-apps/${app.body.slug}/api-tokens/`);
    outsiderTokens.integrationToken = minted.body.token;
    outsiderTokens.scimToken = await enableScim(api, 'initech');

    await commands.execute(new SetUserPasswordCommand('bob@umbrella.test', 'a long enough password'));
    const signedIn = await api.request('POST', '/api/0/auth/login/', {
      token: null,
      body: { username: 'bob@umbrella.test', password: 'a long enough password' },
    });
    outsiderSession.cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
    outsiderSession.csrf = signedIn.body.csrfToken;
    for (const credential of [...Object.values(outsiderTokens), outsiderSession.cookie]) expect(credential).toBeTruthy();
  });

  afterAll(async () => {
    await api?.close();
  });

  it.each([['organizationToken'], ['userToken'], ['integrationToken'], ['scimToken'], ['webSession']])(
    'answers 404 on every organization route for a %s of another organization',
    async (kind) => {
      const credentials =
        kind === 'webSession'
          ? { token: null, headers: { cookie: outsiderSession.cookie, 'x-csrftoken': outsiderSession.csrf } }
          : { token: outsiderTokens[kind] };
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
          const response = await api.request(method, variant, { ...credentials, body });
          const scimRoute = path.includes('/scim/v2/');
          // A SCIM token is no credential outside SCIM, and SCIM takes no web session: 401 before any lookup.
          if ((kind === 'scimToken' && !scimRoute) || (kind === 'webSession' && scimRoute)) {
            expect({ method, path: variant, status: response.status }).toEqual({ method, path: variant, status: 401 });
            continue;
          }
          expect({ method, path: variant, status: response.status }).toEqual({ method, path: variant, status: 404 });
          // SCIM routes answer in SCIM's error format, with the same detail.
          const scim = scimRoute ? { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' } : {};
          expect(response.body).toEqual({ ...scim, detail: 'The requested resource does not exist' });
        }
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each([['organizationToken'], ['userToken'], ['integrationToken'], ['webSession']])(
    'answers 404 on every integration-platform route for a %s of another organization',
    async (kind) => {
      const credentials =
        kind === 'webSession'
          ? { token: null, headers: { cookie: outsiderSession.cookie, 'x-csrftoken': outsiderSession.csrf } }
          : { token: outsiderTokens[kind] };
      const docs = await api.request('GET', '/api/docs.json', { token: null });
      const routes = Object.entries(docs.body.paths as Record<string, Record<string, unknown>>)
        // The OAuth token exchange authenticates by the app's client credentials in its body, not by the caller.
        .filter(([path]) => /\{(slug|uuid)\}/.test(path) && !path.includes('{organization_id_or_slug}') && !path.endsWith('/authorizations'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })));
      expect(routes.length).toBeGreaterThanOrEqual(8);
      const before = await snapshot();
      for (const { method, path } of routes) {
        const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name === 'token_id' ? 'app_token_id' : name] ?? '1');
        // Bodies valid for the route, so that only the lookup can refuse them.
        const body = !['POST', 'PUT'].includes(method)
          ? undefined
          : path.endsWith('installations/{uuid}')
            ? { status: 'installed' }
            : { name: 'intruder', scopes: ['org:read'] };
        const response = await api.request(method, `${concrete}/`, { ...credentials, body });
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
          status: 404,
          body: { detail: 'The requested resource does not exist' },
        });
      }
      expect(await snapshot()).toEqual(before);
      expect((await api.request('GET', `/api/0/sentry-apps/${ids.slug}/api-tokens/`)).body.map((t: { id: string }) => t.id)).toContain(ids.app_token_id);
    },
  );

  it("does not let a user revoke or see another user's token", async () => {
    const mine = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['org:read'] } });
    expect((await api.request('DELETE', `/api/0/api-tokens/${mine.body.id}/`, { token: outsiderTokens.userToken })).status).toBe(404);
    const listed = await api.request('GET', '/api/0/api-tokens/', { token: outsiderTokens.userToken });
    expect(listed.body.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    // Organization tokens are not user tokens: they cannot manage user tokens at all.
    expect((await api.request('DELETE', `/api/0/api-tokens/${mine.body.id}/`, { token: outsiderTokens.organizationToken })).status).toBe(403);
    expect((await api.request('GET', '/api/0/organizations/', { token: mine.body.token })).status).toBe(200);
  });

  it('lists every organization of the instance (show=all) to an instance administrator only', async () => {
    const slugs = async (path: string, token?: string) =>
      ((await api.request('GET', path, { token })).body as Array<{ slug: string }>).map((org) => org.slug).sort();
    expect(await slugs('/api/0/organizations/')).toEqual(['acme', 'initech']);
    expect(await slugs('/api/0/organizations/?show=all')).toEqual(['acme', 'initech', 'umbrella']);
    expect(await slugs('/api/0/organizations/?show=all', outsiderTokens.userToken)).toEqual(['umbrella']);
    expect(await slugs('/api/0/organizations/?show=all', outsiderTokens.organizationToken)).toEqual(['initech']);
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
