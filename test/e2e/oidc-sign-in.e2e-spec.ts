import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn as signInWithPassword } from '../support/browser';
import { type OidcPerson, startOidcProvider } from '../support/oidc-identity-provider';
import { enableScim, scimClient, USER_SCHEMA } from '../support/scim';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const ACME = { client_id: 'faultline-acme', client_secret: 'acme-client-secret' };
const GLOBEX = { client_id: 'faultline-globex', client_secret: 'globex-client-secret' };

/** Single sign-on with OpenID Connect against oidc-provider running in this process, in Chromium. */
describe('OpenID Connect sign-in', () => {
  const people = new Map<string, OidcPerson>();
  let app: TestApp;
  let idp: Awaited<ReturnType<typeof startOidcProvider>>;
  let browser: Browser;
  let scimToken: string;

  const person = (sub: string, email: string, email_verified = true) => people.set(sub, { sub, email, email_verified, name: sub });

  beforeAll(async () => {
    // The provider runs on loopback: the outbound address policy refuses it unless the instance allows private targets.
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    const redirect_uris = [`${app.baseUrl}/auth/sso/`];
    idp = await startOidcProvider(
      [
        { ...ACME, redirect_uris },
        { ...GLOBEX, redirect_uris },
      ],
      people,
    );
    scimToken = await enableScim(app);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await app?.close();
  });

  /** Through the organization's sign-in page to the provider's sign-in and consent pages; answers the page once back. */
  async function signIn(org: string, sub: string, options: { route?: (page: Page) => Promise<unknown> } = {}): Promise<Page> {
    const { page, errors } = await newPage(browser);
    await options.route?.(page);
    await page.goto(`${app.baseUrl}/auth/login/${org}/`);
    await page.getByRole('button', { name: 'Sign in with OpenID Connect' }).click();
    await page.locator('input[name="login"]').fill(sub);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === app.baseUrl && !url.pathname.startsWith('/auth/login'));
    expect(errors).toEqual([]);
    return page;
  }

  /**
   * Stops the browser at the callback: answers its URL (code and state) unspent, the page holding
   * the sign-in's cookie. Playwright routes no redirected request, so the consent's answer is
   * followed here, without redirects, up to the callback's address.
   */
  async function stopAtCallback(org: string, sub: string): Promise<{ page: Page; callback: URL }> {
    const { page } = await newPage(browser);
    let callback: URL | undefined;
    await page.route(`${idp.issuer}/interaction/**`, async (route) => {
      if (route.request().method() !== 'POST' || !route.request().postData()?.includes('prompt=consent')) return route.continue();
      const confirmed = await route.fetch({ maxRedirects: 0 });
      const resumed = await page.context().request.get(new URL(confirmed.headers().location, idp.issuer).href, { maxRedirects: 0 });
      callback = new URL(resumed.headers().location);
      await route.fulfill({ contentType: 'text/html', body: '<p>stopped</p>' });
    });
    await page.goto(`${app.baseUrl}/auth/login/${org}/`);
    await page.getByRole('button', { name: 'Sign in with OpenID Connect' }).click();
    await page.locator('input[name="login"]').fill(sub);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('stopped').waitFor();
    expect(callback?.pathname).toBe('/auth/sso/');
    return { page, callback: callback as URL };
  }

  const me = (page: Page) => page.evaluate(() => fetch('/api/0/auth/').then((response) => response.json() as Promise<{ user?: { email: string } }>));

  async function role(email: string): Promise<string | undefined> {
    const members = await app.request('GET', '/api/0/organizations/acme/members/');
    return members.body.find((member: { email: string }) => member.email === email)?.role;
  }

  it('is configured on the auth-provider API: discovered, the secret never answered, the redirect URI to give the provider', async () => {
    const unreachable = await app.request('PUT', '/api/0/organizations/acme/auth-provider/', {
      body: { provider: 'oidc', issuer: 'http://127.0.0.1:9/', clientId: ACME.client_id, clientSecret: ACME.client_secret },
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.detail).toMatch(/^issuer: discovery at http:\/\/127\.0\.0\.1:9\/ failed/);
    const missingSecret = await app.request('PUT', '/api/0/organizations/acme/auth-provider/', {
      body: { provider: 'oidc', issuer: idp.issuer, clientId: ACME.client_id },
    });
    expect(missingSecret.status).toBe(400);

    const configured = await app.request('PUT', '/api/0/organizations/acme/auth-provider/', {
      body: { provider: 'oidc', issuer: idp.issuer, clientId: ACME.client_id, clientSecret: ACME.client_secret },
    });
    expect(configured.status).toBe(200);
    expect(configured.body).toMatchObject({
      provider: 'oidc',
      provider_name: 'OpenID Connect',
      issuer: idp.issuer,
      clientId: ACME.client_id,
      clientSecretSet: true,
      scopes: 'openid email profile',
      redirectUri: `${app.baseUrl}/auth/sso/`,
      scimEnabled: true,
    });
    expect(JSON.stringify(configured.body)).not.toContain(ACME.client_secret);
    const read = await app.request('GET', '/api/0/organizations/acme/auth-provider/');
    expect(JSON.stringify(read.body)).not.toContain(ACME.client_secret);
    // A change that leaves the secret out keeps it.
    expect((await app.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { scopes: 'openid email' } })).body).toMatchObject({
      clientSecretSet: true,
      scopes: 'openid email',
    });
  });

  it('settings page: the protocol to choose, the redirect URI to copy and a test sign-in, at 1280 and 390 px', async () => {
    const { page, errors } = await newPage(browser);
    await signInWithPassword(page, app);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(`${app.baseUrl}/settings/acme/auth/`);
      await expect(page.getByLabel('Protocol').inputValue()).resolves.toBe('oidc');
      await expect(page.getByText(`${app.baseUrl}/auth/sso/`, { exact: true }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('link', { name: 'Test sign-in' }).getAttribute('href')).resolves.toBe(`${app.baseUrl}/auth/login/acme/`);
      await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe('');
      expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
    }
    await page.getByLabel('Protocol').selectOption('saml2');
    await expect(page.getByLabel('IdP entity ID').isVisible()).resolves.toBe(true);
    await page.getByLabel('Protocol').selectOption('oidc');
    await page.getByLabel('Scopes').fill('openid email profile');
    await page.getByRole('button', { name: 'Update provider' }).click();
    await page.getByText('Space-separated; now openid email profile.').waitFor();
    expect((await app.request('GET', '/api/0/organizations/acme/auth-provider/')).body).toMatchObject({
      scopes: 'openid email profile',
      clientSecretSet: true,
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('signs in a new user who joins just in time with the default role', async () => {
    person('sub-grace', 'grace@acme.test');
    const page = await signIn('acme', 'sub-grace');
    expect(new URL(page.url()).pathname).toBe('/organizations/acme/issues/');
    expect((await me(page)).user?.email).toBe('grace@acme.test');
    expect(await role('grace@acme.test')).toBe('member');
    await page.context().close();
  });

  it('signs in as the member SCIM provisioned, matched by its external id', async () => {
    const created = await scimClient(app, scimToken)('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'linus@acme.test',
      externalId: 'sub-linus',
      active: true,
    });
    expect(created.status).toBe(201);
    person('sub-linus', 'linus.t@acme.test');
    const page = await signIn('acme', 'sub-linus');
    expect((await me(page)).user?.email).toBe('linus@acme.test');
    await page.context().close();
  });

  it("links an existing account with the same e-mail only once its owner gives the account's password", async () => {
    person('sub-admin', BOOTSTRAP.email);
    const page = await signIn('acme', 'sub-admin');
    expect(new URL(page.url()).pathname).toBe('/auth/link/');
    expect((await me(page)).user).toBeUndefined();
    await page.getByLabel('Password').fill(BOOTSTRAP.password);
    await page.getByRole('button', { name: 'Link account' }).click();
    await page.waitForURL(`${app.baseUrl}/organizations/acme/issues/`);
    expect((await me(page)).user?.email).toBe(BOOTSTRAP.email);
    await page.context().close();
  });

  it('refuses a tampered state and a replayed callback; the genuine callback signs in once', async () => {
    person('sub-ada', 'ada@acme.test');
    const { page, callback } = await stopAtCallback('acme', 'sub-ada');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const refused = await page.goto(tampered.href);
    expect(refused?.status()).toBe(401);
    await expect(page.locator('#reason').textContent()).resolves.toMatch(/unknown, was used already or has expired/);

    // The cookie was spent by the refused try: a genuine callback is bound to the browser that started it.
    const { page: second, callback: genuine } = await stopAtCallback('acme', 'sub-ada');
    const signedIn = await second.goto(genuine.href);
    expect(new URL(second.url()).pathname).toBe('/organizations/acme/issues/');
    expect(signedIn?.status()).toBe(200);
    const replayed = await second.goto(genuine.href);
    expect(replayed?.status()).toBe(401);
    await page.context().close();
    await second.context().close();
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    person('sub-eve', 'eve@acme.test');
    const page = await signIn('acme', 'sub-eve', {
      // The start's redirect to the provider, its nonce swapped (Playwright routes no redirected request).
      route: (target) =>
        target.route(`${app.baseUrl}/auth/login/acme/`, async (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          const started = await route.fetch({ maxRedirects: 0 });
          const url = new URL(started.headers().location);
          url.searchParams.set('nonce', 'a-nonce-of-the-attacker');
          await route.fulfill({ status: 302, headers: { ...started.headers(), location: url.href } });
        }),
    });
    expect(new URL(page.url()).pathname).toBe('/auth/sso/');
    await expect(page.locator('#reason').textContent()).resolves.toMatch(/nonce/);
    expect(await role('eve@acme.test')).toBeUndefined();
    await page.context().close();
  });

  it('refuses an e-mail address the provider has not verified, with a page that says so', async () => {
    person('sub-mallory', 'mallory@acme.test', false);
    const page = await signIn('acme', 'sub-mallory');
    await expect(page.locator('#reason').textContent()).resolves.toMatch(/has not verified the e-mail address mallory@acme\.test/);
    expect(await role('mallory@acme.test')).toBeUndefined();
    await page.context().close();
  });

  it("refuses another organization's code with this organization's state", async () => {
    expect((await app.request('POST', '/api/0/organizations/', { body: { name: 'Globex', slug: 'globex' } })).status).toBe(201);
    const configured = await app.request('POST', '/api/0/organizations/globex/auth-provider/', {
      body: { provider: 'oidc', issuer: idp.issuer, clientId: GLOBEX.client_id, clientSecret: GLOBEX.client_secret },
    });
    expect(configured.status).toBe(201);
    person('sub-hans', 'hans@globex.test');
    const { page: globexPage, callback: globex } = await stopAtCallback('globex', 'sub-hans');
    const { page, callback: acme } = await stopAtCallback('acme', 'sub-hans');
    const crossed = new URL(acme);
    crossed.searchParams.set('code', globex.searchParams.get('code') ?? '');
    const refused = await page.goto(crossed.href);
    expect(refused?.status()).toBe(401);
    expect(await role('hans@globex.test')).toBeUndefined();
    await globexPage.context().close();
    await page.context().close();
  });
});
