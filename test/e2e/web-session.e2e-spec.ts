import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/** Signing in to the web interface over HTTP: the session cookie, CSRF, sign-out, and the pages' routes. */
describe('web sessions', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://faultline.example.com' });
  });

  afterAll(async () => {
    await app.close();
  });

  async function signIn(password = BOOTSTRAP.password, username = BOOTSTRAP.email) {
    const response = await app.request('POST', '/api/0/auth/login/', { token: null, body: { username, password } });
    const setCookie = response.headers.get('set-cookie') ?? '';
    return { response, cookie: setCookie.split(';')[0], setCookie };
  }

  it('signs in with the bootstrap password and sets an httpOnly, SameSite, Secure session cookie', async () => {
    const { response, setCookie } = await signIn();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { email: BOOTSTRAP.email, isSuperuser: true }, csrfToken: expect.stringMatching(/^[\w-]{43}$/) });
    expect(setCookie).toMatch(/^faultline_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600; Secure$/);
  });

  it('answers a wrong password and an unknown user alike, and sets no cookie', async () => {
    const wrong = await signIn('not-the-password');
    const unknown = await signIn('not-the-password', 'nobody@acme.test');
    for (const { response, setCookie } of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'Invalid e-mail address or password.' });
      expect(setCookie).toBe('');
    }
  });

  it('authenticates reads by cookie, and writes only with the session CSRF token', async () => {
    const { response, cookie } = await signIn();
    const csrf = response.body.csrfToken as string;
    const me = await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie } });
    expect(me.body).toMatchObject({ user: { email: BOOTSTRAP.email }, csrfToken: csrf });
    // Sentry's shape too: the user's own fields at the top, as API clients read them.
    expect(me.body).toMatchObject({ id: me.body.user.id, email: BOOTSTRAP.email, name: me.body.user.name, username: BOOTSTRAP.email });
    expect((await app.request('GET', '/api/0/organizations/acme/projects/', { token: null, headers: { cookie } })).status).toBe(200);

    const body = { name: 'From the browser' };
    const forged = await app.request('POST', '/api/0/organizations/acme/teams/', { token: null, headers: { cookie }, body });
    expect(forged.status).toBe(403);
    expect(forged.body.detail).toMatch(/CSRF/);
    const wrongToken = await app.request('POST', '/api/0/organizations/acme/teams/', {
      token: null,
      headers: { cookie, 'x-csrftoken': `${csrf.slice(1)}x` },
      body,
    });
    expect(wrongToken.status).toBe(403);
    const teams = await app.request('GET', '/api/0/organizations/acme/teams/');
    expect(teams.body.map((team: { name: string }) => team.name)).not.toContain('From the browser');

    const created = await app.request('POST', '/api/0/organizations/acme/teams/', { token: null, headers: { cookie, 'x-csrftoken': csrf }, body });
    expect(created.status).toBe(201);
  });

  it('leaves bearer tokens unaffected: no CSRF token needed, and the token wins over a cookie', async () => {
    const created = await app.request('POST', '/api/0/organizations/acme/teams/', {
      body: { name: 'By token' },
      headers: { cookie: 'faultline_session=forged' },
    });
    expect(created.status).toBe(201);
  });

  it('refuses an unknown cookie with 401', async () => {
    const response = await app.request('GET', '/api/0/organizations/', { token: null, headers: { cookie: 'faultline_session=forged' } });
    expect(response.status).toBe(401);
  });

  it('creates and revokes API tokens from a session', async () => {
    const { response, cookie } = await signIn();
    const headers = { cookie, 'x-csrftoken': response.body.csrfToken };
    const token = await app.request('POST', '/api/0/api-tokens/', { token: null, headers, body: { name: 'ci', scopes: ['project:read'] } });
    expect(token.status).toBe(201);
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token: token.body.token })).status).toBe(200);
    expect((await app.request('DELETE', `/api/0/api-tokens/${token.body.id}/`, { token: null, headers })).status).toBe(204);
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token: token.body.token })).status).toBe(401);
  });

  it('signs out: the session is revoked server-side and the cookie cleared', async () => {
    const { response, cookie } = await signIn();
    const headers = { cookie, 'x-csrftoken': response.body.csrfToken };
    expect((await app.request('DELETE', '/api/0/auth/', { token: null, headers: { cookie } })).status).toBe(403);
    const signOut = await app.request('DELETE', '/api/0/auth/', { token: null, headers });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toMatch(/^faultline_session=; .*Max-Age=0/);
    expect((await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie } })).status).toBe(401);
  });

  it('refuses further sign-ins for an address after 10 failures, with Retry-After', async () => {
    for (let attempt = 0; attempt < 10; attempt++) expect((await signIn('guess', 'target@acme.test')).response.status).toBe(401);
    const refused = await signIn('guess', 'target@acme.test');
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn()).response.status).toBe(200);
  });

  it('serves the interface at its routes without touching the API, health, metrics or docs', async () => {
    for (const path of [
      '/',
      '/auth/login/',
      '/settings/acme/projects/web/hooks/',
      '/organizations/acme/issues/',
      '/organizations/acme/issues/1/',
      '/settings/account/api/auth-tokens/',
    ]) {
      const page = await fetch(`${app.baseUrl}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await page.text();
      const script = /src="(\/assets\/main-[\w]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${app.baseUrl}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const compressed = await fetch(`${app.baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(compressed.headers.get('content-encoding')).toBe('br');
      expect((await compressed.text()).length).toBe((await asset.text()).length);
    }
    // Each body is read to the end, so no response stays half-sent when the app closes.
    const get = async (path: string) => {
      const response = await fetch(`${app.baseUrl}${path}`);
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    };
    expect((await get('/health/live')).status).toBe(200);
    expect((await get('/metrics')).text).toContain('# HELP');
    expect(JSON.parse((await get('/api/docs.json')).text).paths['/api/0/auth/login']).toBeDefined();
    const api = await get('/api/0/organizations/');
    expect(api.status).toBe(401);
    expect(JSON.parse(api.text)).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await get('/api/0/nothing-here/')).type).toMatch(/json/);
  });

  describe('without BOOTSTRAP_TOKEN', () => {
    let fresh: TestApp;
    // Recorded, still written: the first start prints the generated API token, as it should.
    let stdout: jest.SpyInstance;

    beforeAll(async () => {
      stdout = jest.spyOn(process.stdout, 'write');
      fresh = await startTestApp({ BOOTSTRAP_TOKEN: '' });
    });

    afterAll(async () => {
      stdout.mockRestore();
      await fresh.close();
    });

    it('gives the first user BOOTSTRAP_PASSWORD, and a restart adds no token and keeps the password', async () => {
      const tokens = async () => {
        const signedIn = await fresh.request('POST', '/api/0/auth/login/', { token: null, body: { username: BOOTSTRAP.email, password: BOOTSTRAP.password } });
        expect(signedIn.status).toBe(200);
        const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
        return (await fresh.request('GET', '/api/0/api-tokens/', { token: null, headers: { cookie } })).body as unknown[];
      };
      expect(await tokens()).toHaveLength(1);
      await fresh.restart();
      expect(await tokens()).toHaveLength(1);
      expect(stdout.mock.calls.map(([text]) => String(text)).join('')).not.toContain(BOOTSTRAP.password);
    });
  });
});
