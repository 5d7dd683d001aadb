import { Client } from 'pg';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { FixedClock } from '@faultline/kernel';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import { BOOTSTRAP, freePort, startTestApp, type TestApp } from '../support/test-app';

/**
 * Security keys (WebAuthn) in Chromium with a virtual authenticator: enrolling and naming a key,
 * signing in with it, replayed signatures refused, and an organization's two-factor requirement
 * satisfied by it. WebAuthn takes a domain for its relying party, so the page is served as
 * `localhost` and PUBLIC_URL names it.
 */
describe('web interface: security keys (browser)', () => {
  const clock = new FixedClock(new Date('2026-03-02T10:00:00Z'));
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let cdp: CDPSession;
  let origin: string;
  let recoveryCodes: string[];

  const signInWithPassword = async () => {
    await page.goto(`${origin}/auth/login/`);
    await page.getByLabel('E-mail address').fill(BOOTSTRAP.email);
    await page.getByLabel('Password').fill(BOOTSTRAP.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    browser = await launchBrowser();
    app = await startTestApp({ PORT: String(port), PUBLIC_URL: origin }, { clock });
    ({ page, errors } = await newPage(browser));
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: false, hasUserVerification: false, automaticPresenceSimulation: true },
    });
    await signInWithPassword();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  it('enrols a named key, which brings recovery codes and satisfies the organization requiring two-factor authentication', async () => {
    const refused = await app.request('PUT', '/api/0/organizations/acme/', { body: { require2FA: true } });
    expect(refused.status).toBe(400);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Account security' }).click();
    await page.getByRole('heading', { name: 'Account security', level: 1 }).waitFor();
    await page.getByLabel("New key's name").fill('YubiKey 5');
    await page.getByRole('button', { name: 'Add a security key' }).click();
    recoveryCodes = (await page.locator('.shown-once pre').textContent())!.trim().split('\n');
    expect(recoveryCodes).toHaveLength(10);
    await page.getByText('YubiKey 5').waitFor();

    await page.getByRole('button', { name: 'Rename YubiKey 5' }).click();
    await page.getByLabel('Key name').fill('Blue key');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Remove Blue key' }).waitFor();
    await screenshot(page, 'account-security-keys');

    const listed = await app.request<Array<{ type: string; devices?: Array<{ name: string; key_handle: string }> }>>('GET', '/api/0/users/me/authenticators/');
    expect(listed.body.map((authenticator) => authenticator.type).sort()).toEqual(['recovery', 'u2f']);
    expect(listed.body.find((authenticator) => authenticator.type === 'u2f')!.devices).toEqual([expect.objectContaining({ name: 'Blue key' })]);

    const required = await app.request('PUT', '/api/0/organizations/acme/', { body: { require2FA: true } });
    expect(required.status).toBe(200);
  });

  it('signs in with the key after the password, and a replayed signature opens nothing', async () => {
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/0/auth/2fa/')) posted.push(request.postData() ?? '');
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithPassword();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByRole('button', { name: 'Use security key' }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
    const used = await app.request<Array<{ type: string; lastUsedAt: string | null }>>('GET', '/api/0/users/me/authenticators/');
    expect(used.body.find((authenticator) => authenticator.type === 'u2f')!.lastUsedAt).toBe(clock.now().toISOString());

    // The same body again: its sign-in is spent.
    expect(posted).toHaveLength(1);
    const again = await app.request('POST', '/api/0/auth/2fa/', { token: null, rawBody: posted[0], headers: { 'content-type': 'application/json' } });
    expect(again.status).toBe(401);

    // The old signature against a new sign-in's challenge: refused, and counted as a failure.
    const password = await app.request<{ challenge: string; interfaces: string[] }>('POST', '/api/0/auth/login/', {
      token: null,
      body: { username: BOOTSTRAP.email, password: BOOTSTRAP.password },
    });
    expect(password.body.interfaces).toEqual(['u2f']);
    const options = await app.request('POST', '/api/0/auth/2fa/webauthn/', { token: null, body: { challenge: password.body.challenge } });
    expect(options.status).toBe(200);
    const replayed = await app.request('POST', '/api/0/auth/2fa/', {
      token: null,
      body: { challenge: password.body.challenge, webauthn: (JSON.parse(posted[0]) as { webauthn: unknown }).webauthn },
    });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual({ detail: 'The security key was not accepted. Try again.' });
    const malformed = await app.request('POST', '/api/0/auth/2fa/', { token: null, body: { challenge: password.body.challenge, webauthn: { id: 1 } } });
    expect(malformed.status).toBe(400);
  });

  it('refuses a key whose signature counter went back, as a cloned key would', async () => {
    const database = new Client({ connectionString: app.databaseUrl });
    await database.connect();
    try {
      await database.query(`UPDATE identity.security_keys SET sign_count = 1000000`);
    } finally {
      await database.end();
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithPassword();
    await page.getByRole('button', { name: 'Use security key' }).click();
    await page.getByText('The security key was not accepted. Try again.').waitFor();
    await page.getByLabel('Code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
  });

  it('keeps the last key while the organization requires a second factor, and removes it once it does not', async () => {
    await page.goto(`${origin}/settings/account/security/`);
    await page.getByRole('button', { name: 'Remove Blue key' }).click();
    await page.getByText('Cannot remove two-factor authentication: required by acme.').waitFor();
    expect((await app.request('PUT', '/api/0/organizations/acme/', { body: { require2FA: false } })).status).toBe(200);
    await page.getByRole('button', { name: 'Remove Blue key' }).click();
    await page.getByText("Sign in with a hardware key (such as a YubiKey) or your device's built-in authenticator.").waitFor();
    const left = await app.request<Array<{ type: string }>>('GET', '/api/0/users/me/authenticators/');
    expect(left.body).toEqual([]);
  });
});
