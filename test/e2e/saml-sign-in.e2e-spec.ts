import { CommandBus } from '@nestjs/cqrs';
import { FixedClock } from '@faultline/kernel';
import { SetUserPasswordCommand } from '@faultline/identity';
import { launchBrowser, newPage } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import {
  IDP_ENTITY_ID,
  IDP_SSO_URL,
  identityProvider,
  samlFixture,
  samlify,
  type SamlifyServiceProvider,
  type SamlPerson,
  signedSamlResponse,
} from '../support/saml-identity-provider';
import { enableScim, scimClient, USER_SCHEMA } from '../support/scim';

const fixture = samlFixture;
const idp = identityProvider;

/** Single sign-on with SAML 2.0 against a samlify identity provider, over HTTP. */
describe('SAML sign-in', () => {
  const clock = new FixedClock(new Date('2026-03-01T10:00:00Z'));
  let app: TestApp;
  let sp: SamlifyServiceProvider;
  let scimToken: string;

  beforeAll(async () => {
    app = await startTestApp({ SAML_SP_PRIVATE_KEY: fixture('sp.key'), SAML_SP_CERTIFICATE: fixture('sp.crt') }, { clock });
    scimToken = await enableScim(app);
    const configured = await app.request('PUT', '/api/0/organizations/acme/auth-provider/', {
      body: { idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, x509cert: fixture('idp.crt') },
    });
    expect(configured.status).toBe(200);
    const metadata = await fetch(`${app.baseUrl}/saml/metadata/acme/`);
    expect(metadata.status).toBe(200);
    sp = samlify.ServiceProvider({ metadata: await metadata.text() });
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  /** The signed response the IdP posts, its times from the test's clock. */
  /** The IdP's signed response, its times from the test's clock. */
  const samlResponse = (person: SamlPerson, options: { inResponseTo?: string; validForMs?: number } = {}) =>
    signedSamlResponse(sp, person, { now: clock.now(), ...options });

  const post = (org: string, SAMLResponse: string, RelayState?: string) =>
    fetch(`${app.baseUrl}/saml/acs/${org}/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ SAMLResponse, ...(RelayState ? { RelayState } : {}) }).toString(),
    });

  async function whoAmI(response: Response) {
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    const me = await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie } });
    return { status: me.status, email: me.body.user?.email as string | undefined, cookie };
  }

  async function role(email: string): Promise<string | undefined> {
    const members = await app.request('GET', '/api/0/organizations/acme/members/');
    return members.body.find((member: { email: string }) => member.email === email)?.role;
  }

  it("serves the service provider's metadata: entity id, assertion consumer and signing certificate", async () => {
    expect(sp.entityMeta.getEntityID()).toBe(`${app.baseUrl}/saml/metadata/acme/`);
    expect(sp.entityMeta.getAssertionConsumerService('post')).toBe(`${app.baseUrl}/saml/acs/acme/`);
    expect(sp.entityMeta.isAuthnRequestSigned()).toBe(true);
    expect((await fetch(`${app.baseUrl}/saml/metadata/no-such-org/`)).status).toBe(404);
  });

  it('signs in SP-initiated: a signed AuthnRequest, a single-use RelayState, and a just-in-time member', async () => {
    const page = await fetch(`${app.baseUrl}/auth/login/acme/`);
    expect(await page.text()).toContain('Sign in with SSO');
    const started = await fetch(`${app.baseUrl}/auth/login/acme/`, { method: 'POST', redirect: 'manual' });
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(IDP_SSO_URL);
    const octetString = location.search.slice(1).replace(/&Signature=[^&]*/, '');
    // The IdP verifies the request's signature with the certificate of our metadata.
    const request = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(location.searchParams), octetString });
    const requestId = request.extract.request.id as string;
    const relayState = location.searchParams.get('RelayState') ?? '';

    const person = { id: '00u-jit', email: 'grace@acme.test', firstName: 'Grace', lastName: 'Hopper' };
    const response = await samlResponse(person, { inResponseTo: requestId });
    const signedIn = await post('acme', response, relayState);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/organizations/acme/issues/');
    expect(await whoAmI(signedIn)).toMatchObject({ status: 200, email: 'grace@acme.test' });
    expect(await role('grace@acme.test')).toBe('member');

    // The same assertion, and the RelayState, are spent.
    expect((await post('acme', response, relayState)).status).toBe(401);
    const again = await post('acme', await samlResponse(person, { inResponseTo: requestId }), relayState);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ detail: expect.stringMatching(/InResponseTo/) });
  });

  it("signs in from the browser: the organization's sign-in page, the identity provider, back signed in (Chromium)", async () => {
    const browser = await launchBrowser();
    try {
      const { page, errors } = await newPage(browser);
      // The identity provider's sign-in page: samlify answers the AuthnRequest with its HTTP-POST binding.
      await page.route(`${IDP_SSO_URL}**`, async (route) => {
        const url = new URL(route.request().url());
        const octetString = url.search.slice(1).replace(/&Signature=[^&]*/, '');
        const request = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString });
        const response = await samlResponse({ id: '00u-brenda', email: 'brenda@acme.test' }, { inResponseTo: request.extract.request.id });
        const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
        await route.fulfill({
          contentType: 'text/html',
          body: `<form method="post" action="${app.baseUrl}/saml/acs/acme/">${field('SAMLResponse', response)}${field('RelayState', url.searchParams.get('RelayState') ?? '')}</form><script>document.forms[0].submit()</script>`,
        });
      });
      await page.goto(`${app.baseUrl}/auth/login/acme/`);
      await page.getByRole('button', { name: 'Sign in with SSO' }).click();
      await page.waitForURL(`${app.baseUrl}/organizations/acme/issues/`);
      const me = await page.evaluate(() => fetch('/api/0/auth/').then((response) => response.json() as Promise<{ user: { email: string } }>));
      expect(me.user.email).toBe('brenda@acme.test');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('signs in IdP-initiated as the member SCIM provisioned, matched by its external id', async () => {
    const scim = scimClient(app, scimToken);
    const created = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'linus@acme.test', externalId: '00u-linus', active: true });
    expect(created.status).toBe(201);
    // The IdP now sends another address for the same user: the external id decides.
    const signedIn = await post('acme', await samlResponse({ id: '00u-linus', email: 'linus.t@acme.test' }));
    expect(signedIn.status).toBe(302);
    expect(await whoAmI(signedIn)).toMatchObject({ status: 200, email: 'linus@acme.test' });
  });

  it('links an existing account with the same e-mail only once its password is given', async () => {
    const response = await post('acme', await samlResponse({ id: '00u-admin', email: BOOTSTRAP.email }));
    expect(response.status).toBe(302);
    expect(response.headers.get('set-cookie')).toBeNull();
    const token = new URLSearchParams((response.headers.get('location') ?? '').split('#')[1]).get('token') ?? '';
    expect(response.headers.get('location')).toMatch(/^\/auth\/link\/#token=/);

    const wrong = await app.request('POST', '/api/0/auth/sso-link/', { token: null, body: { token, password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    const linked = await app.request('POST', '/api/0/auth/sso-link/', { token: null, body: { token, password: BOOTSTRAP.password } });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ organization: 'acme', user: { email: BOOTSTRAP.email } });
    // Linked now: the next SSO sign-in goes straight in.
    const next = await post('acme', await samlResponse({ id: '00u-admin', email: BOOTSTRAP.email }));
    expect(await whoAmI(next)).toMatchObject({ status: 200, email: BOOTSTRAP.email });
  });

  it("requires a member's session to have passed the organization's SSO (Sentry's sso-required), and a removed member's token stops", async () => {
    await app.app.get(CommandBus).execute(new SetUserPasswordCommand('grace@acme.test', 'grace-password-1'));
    const password = await app.request('POST', '/api/0/auth/login/', { token: null, body: { username: 'grace@acme.test', password: 'grace-password-1' } });
    expect(password.status).toBe(200);
    const passwordCookie = (password.headers.get('set-cookie') ?? '').split(';')[0];
    const refused = await app.request('GET', '/api/0/organizations/acme/projects/', { token: null, headers: { cookie: passwordCookie } });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: { code: 'sso-required', message: 'Must login via SSO', extra: { loginUrl: '/auth/login/acme/' } } });

    const sso = await whoAmI(await post('acme', await samlResponse({ id: '00u-jit', email: 'grace@acme.test' })));
    const headers = { cookie: sso.cookie };
    expect((await app.request('GET', '/api/0/organizations/acme/projects/', { token: null, headers })).status).toBe(200);
    const csrf = (await app.request('GET', '/api/0/auth/', { token: null, headers })).body.csrfToken as string;
    const token = await app.request('POST', '/api/0/api-tokens/', {
      token: null,
      headers: { ...headers, 'x-csrftoken': csrf },
      body: { name: 'ci', scopes: ['org:read'] },
    });
    expect(token.status).toBe(201);
    expect((await app.request('GET', '/api/0/organizations/acme/', { token: token.body.token })).status).toBe(200);

    const members = await app.request('GET', '/api/0/organizations/acme/members/');
    const grace = members.body.find((member: { email: string }) => member.email === 'grace@acme.test');
    // The identity provider removes the member, as Okta and Entra do: by SCIM.
    expect((await scimClient(app, scimToken)('DELETE', `/Users/${grace.id}`)).status).toBe(204);
    expect((await app.request('GET', '/api/0/organizations/acme/', { token: token.body.token })).status).toBe(404);
  });

  it("refuses tampered, expired and other organizations' responses", async () => {
    const person = { id: '00u-mallory', email: 'mallory@acme.test' };
    const signed = Buffer.from(await samlResponse(person), 'base64').toString('utf8');
    const tampered = Buffer.from(signed.replace('mallory@acme.test</saml:AttributeValue>', 'admin@acme.test</saml:AttributeValue>')).toString('base64');
    const refusedTampered = await post('acme', tampered);
    expect(refusedTampered.status).toBe(401);
    expect(await refusedTampered.json()).toEqual({ detail: expect.stringMatching(/signature/i) });
    // A browser, which the identity provider's form brings here, gets a page with the reason and the way back.
    const inBrowser = await fetch(`${app.baseUrl}/saml/acs/acme/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      body: new URLSearchParams({ SAMLResponse: tampered }).toString(),
    });
    expect(inBrowser.status).toBe(401);
    expect(inBrowser.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await inBrowser.text();
    expect(html).toContain('<h1>Single sign-on failed</h1>');
    expect(html).toMatch(/signature/i);
    expect(html).toContain('<a href="/auth/login/acme/">Back to sign-in</a>');

    const expiring = await samlResponse(person, { validForMs: 60_000 });
    clock.advance(10 * 60_000);
    const expired = await post('acme', expiring);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ detail: expect.stringMatching(/expired/) });

    // Another organization trusting the same IdP: a response addressed to acme does not sign in there.
    expect((await app.request('POST', '/api/0/organizations/', { body: { name: 'Globex', slug: 'globex' } })).status).toBe(201);
    expect(
      (
        await app.request('POST', '/api/0/organizations/globex/auth-provider/', {
          body: { provider: 'saml2', idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, x509cert: fixture('idp.crt') },
        })
      ).status,
    ).toBe(201);
    const crossed = await post('globex', await samlResponse(person));
    expect(crossed.status).toBe(401);
    expect(await crossed.json()).toEqual({ detail: expect.stringMatching(/audience/i) });
    expect(await role('mallory@acme.test')).toBeUndefined();
  });
});
