import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand, SetUserPasswordCommand } from '@faultline/identity';
import { FixedClock } from '@faultline/kernel';
import { launchBrowser, newPage, screenshot, signIn as signInBrowser } from '../support/browser';
import {
  IDP_ENTITY_ID,
  IDP_SSO_URL,
  samlFixture,
  samlify,
  type SamlifyServiceProvider,
  type SamlPerson,
  signedSamlResponse,
} from '../support/saml-identity-provider';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const SESSIONS = '/api/0/users/me/sessions/';
const IDENTITIES = '/api/0/users/me/user-identities/';

/** The signed-in user's own browser sessions and single sign-on links, over HTTP and on the account security page. */
describe('account sessions and linked identities', () => {
  const clock = new FixedClock(new Date('2026-03-03T10:00:00Z'));
  let app: TestApp;
  let sp: SamlifyServiceProvider;

  beforeAll(async () => {
    app = await startTestApp({ SAML_SP_PRIVATE_KEY: samlFixture('sp.key'), SAML_SP_CERTIFICATE: samlFixture('sp.crt') }, { clock });
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  async function signIn(userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36') {
    const response = await app.request('POST', '/api/0/auth/login/', {
      token: null,
      headers: { 'user-agent': userAgent },
      body: { username: BOOTSTRAP.email, password: BOOTSTRAP.password },
    });
    expect(response.status).toBe(200);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    return { cookie, headers: { cookie, 'x-csrftoken': response.body.csrfToken as string } };
  }

  const samlPost = async (person: SamlPerson) =>
    fetch(`${app.baseUrl}/saml/acs/acme/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ SAMLResponse: await signedSamlResponse(sp, person, { now: clock.now() }) }).toString(),
    });

  it("lists the caller's live sessions, marks the current one, and revokes another: its cookie stops working", async () => {
    const first = await signIn();
    const second = await signIn('curl/8.5.0');
    const listed = await app.request('GET', SESSIONS, { token: null, headers: second.headers });
    expect(listed.status).toBe(200);
    const current = listed.body.find((session: { current: boolean }) => session.current);
    expect(current).toMatchObject({ userAgent: 'curl/8.5.0', ipAddress: expect.any(String), expires: '2026-03-17T10:00:00.000Z' });
    expect(listed.body.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    const other = listed.body.find((session: { userAgent: string | null }) => session.userAgent?.includes('Chrome/120'));
    expect(other).toMatchObject({ current: false, browser: 'Chrome on Linux', dateCreated: '2026-03-03T10:00:00.000Z' });
    expect(JSON.stringify(listed.body)).not.toContain(first.cookie.split('=')[1]);

    // CSRF applies as to every write from a browser.
    expect((await app.request('DELETE', `${SESSIONS}${other.id}/`, { token: null, headers: { cookie: second.cookie } })).status).toBe(403);
    expect((await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie: first.cookie } })).status).toBe(200);
    expect((await app.request('DELETE', `${SESSIONS}${other.id}/`, { token: null, headers: second.headers })).status).toBe(204);
    expect((await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await app.request('DELETE', `${SESSIONS}${other.id}/`, { token: null, headers: second.headers })).status).toBe(404);
    const after = await app.request('GET', SESSIONS, { token: null, headers: second.headers });
    expect(after.body.map((session: { id: string }) => session.id)).not.toContain(other.id);
  });

  it("answers 404 for another user's session and refuses API tokens", async () => {
    const mine = await signIn();
    const commands = app.app.get(CommandBus);
    await commands.execute(new CreateUserCommand('ada@acme.test', 'Ada'));
    await commands.execute(new SetUserPasswordCommand('ada@acme.test', 'ada-password-1'));
    const ada = await app.request('POST', '/api/0/auth/login/', { token: null, body: { username: 'ada@acme.test', password: 'ada-password-1' } });
    const adaHeaders = { cookie: (ada.headers.get('set-cookie') ?? '').split(';')[0], 'x-csrftoken': ada.body.csrfToken as string };
    const [adaSession] = (await app.request('GET', SESSIONS, { token: null, headers: adaHeaders })).body;
    expect((await app.request('DELETE', `${SESSIONS}${adaSession.id}/`, { token: null, headers: mine.headers })).status).toBe(404);
    expect((await app.request('GET', '/api/0/auth/', { token: null, headers: adaHeaders })).body.user).toMatchObject({ email: 'ada@acme.test' });
    expect((await app.request('GET', `/api/0/users/${adaSession.id}9/sessions/`, { token: null, headers: mine.headers })).status).toBe(404);

    const byToken = await app.request('GET', SESSIONS);
    expect(byToken.status).toBe(403);
    expect(byToken.body.detail).toMatch(/browser session/);
    expect((await app.request('DELETE', `${SESSIONS}${adaSession.id}/`)).status).toBe(403);
  });

  describe('linked identities', () => {
    beforeAll(async () => {
      expect((await app.request('PUT', '/api/0/organizations/acme/', { body: { plan: 'business' } })).status).toBe(200);
      const configured = await app.request('POST', '/api/0/organizations/acme/auth-provider/', {
        body: { provider: 'saml2', idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, x509cert: samlFixture('idp.crt') },
      });
      expect(configured.status).toBe(201);
      sp = samlify.ServiceProvider({ metadata: await (await fetch(`${app.baseUrl}/saml/metadata/acme/`)).text() });
    });

    it("lists an owner's SSO link and unlinks it: the next SSO sign-in asks to link again", async () => {
      const linking = await samlPost({ id: '00u-admin', email: BOOTSTRAP.email });
      const token = new URLSearchParams((linking.headers.get('location') ?? '').split('#')[1]).get('token') ?? '';
      const linked = await app.request('POST', '/api/0/auth/sso-link/', { token: null, body: { token, password: BOOTSTRAP.password } });
      expect(linked.status).toBe(200);
      const headers = { cookie: (linked.headers.get('set-cookie') ?? '').split(';')[0], 'x-csrftoken': linked.body.csrfToken as string };

      const listed = await app.request('GET', IDENTITIES, { token: null, headers });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        expect.objectContaining({
          category: 'org-identity',
          name: '00u-admin',
          provider: { key: 'saml2', name: 'SAML2' },
          organization: expect.objectContaining({ slug: 'acme', name: expect.any(String) }),
          status: 'can_disconnect',
          dateAdded: expect.any(String),
        }),
      ]);
      const [identity] = listed.body;
      expect((await app.request('DELETE', `${IDENTITIES}org-identity/${identity.id}/`)).status).toBe(403);
      expect((await app.request('DELETE', `${IDENTITIES}global-identity/${identity.id}/`, { token: null, headers })).status).toBe(404);
      expect((await app.request('DELETE', `${IDENTITIES}org-identity/${identity.id}/`, { token: null, headers })).status).toBe(204);
      expect((await app.request('GET', IDENTITIES, { token: null, headers })).body).toEqual([]);
      expect((await app.request('DELETE', `${IDENTITIES}org-identity/${identity.id}/`, { token: null, headers })).status).toBe(404);

      const again = await samlPost({ id: '00u-admin', email: BOOTSTRAP.email });
      expect(again.status).toBe(302);
      expect(again.headers.get('location')).toMatch(/^\/auth\/link\/#token=/);
    });

    it("refuses to unlink a member's identity while the organization requires SSO", async () => {
      const signedIn = await samlPost({ id: '00u-jit', email: 'grace@acme.test' });
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
      const csrf = (await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie } })).body.csrfToken as string;
      const headers = { cookie, 'x-csrftoken': csrf };
      const [identity] = (await app.request('GET', IDENTITIES, { token: null, headers })).body;
      expect(identity).toMatchObject({ name: '00u-jit', status: 'needed_for_org_auth' });
      const refused = await app.request('DELETE', `${IDENTITIES}org-identity/${identity.id}/`, { token: null, headers });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/requires single sign-on/);
      expect((await app.request('GET', IDENTITIES, { token: null, headers })).body).toHaveLength(1);
    });

    it('shows sessions and linked identities on the account security page, revokes another session and unlinks (Chromium, 1280 and 390 px)', async () => {
      const other = await signIn('curl/8.5.0');
      const linking = await samlPost({ id: '00u-admin', email: BOOTSTRAP.email });
      const token = new URLSearchParams((linking.headers.get('location') ?? '').split('#')[1]).get('token') ?? '';
      expect((await app.request('POST', '/api/0/auth/sso-link/', { token: null, body: { token, password: BOOTSTRAP.password } })).status).toBe(200);
      const [otherSession] = (await app.request('GET', SESSIONS, { token: null, headers: other.headers })).body.filter(
        (session: { current: boolean }) => session.current,
      );

      const browser = await launchBrowser();
      try {
        const { page, errors } = await newPage(browser);
        await signInBrowser(page, app);
        await page.getByRole('button', { name: 'Settings', exact: true }).click();
        await page.getByRole('link', { name: 'Account security' }).click();
        const sessions = page.getByRole('region', { name: 'Sessions' });
        await sessions.getByText('This session').waitFor();
        expect(await sessions.getByText('This session').count()).toBe(1);
        await sessions.getByRole('button', { name: `Revoke session ${otherSession.id}` }).click();
        await sessions.getByRole('button', { name: `Revoke session ${otherSession.id}` }).waitFor({ state: 'detached' });
        expect((await app.request('GET', '/api/0/auth/', { token: null, headers: { cookie: other.cookie } })).status).toBe(401);

        const identities = page.getByRole('region', { name: 'Linked identities' });
        await identities.getByText('(SAML2)').waitFor();
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
        await screenshot(page, 'account-sessions-390');
        await identities.getByRole('button', { name: /^Unlink / }).click();
        await identities.getByText('No single sign-on identities are linked to your account.').waitFor();
        expect((await app.request('GET', IDENTITIES, { token: null, headers: other.headers })).status).toBe(401);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });
});
