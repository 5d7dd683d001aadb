import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Developer settings in Chromium, over the integration platform's API (Sentry's shapes):
 * create an internal integration through the form and install it, see its credentials, tokens and
 * request log; create a public integration, install and uninstall it.
 */
describe('web interface: developer settings (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    browser = await launchBrowser();
    await receiver.start();
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver.close();
  });

  afterEach(() => {
    // Emptied per test, so a script error fails the test it happened in and not every later one.
    expect(errors.splice(0)).toEqual([]);
  });

  async function installations(): Promise<Array<{ uuid: string; status: string; app: { slug: string } }>> {
    const response = await app.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Installs the app from the integrations page unless it is installed already (internal apps install themselves). */
  async function installFromIntegrationsPage(name: string): Promise<void> {
    await page.goto(`${app.baseUrl}/settings/acme/integrations/`);
    await page.getByRole('heading', { name: 'Installed' }).waitFor();
    await page.locator('.skeleton').first().waitFor({ state: 'detached' });
    const install = page.getByRole('button', { name: `Install ${name}`, exact: true });
    if (await install.count()) await install.click();
    await page.locator('table.installations tr', { hasText: name }).waitFor();
  }

  it('creates an internal integration through the form, with its webhook resources and scopes', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/developer-settings/`);
    await page.getByText('No internal integrations yet.').waitFor();
    await screenshot(page, 'developer-settings-empty');
    await page.getByRole('link', { name: 'New internal integration' }).click();

    // Without a name the API refuses, and says so next to the field.
    await page.getByRole('button', { name: 'Save integration' }).click();
    const nameError = page
      .locator('.field')
      .filter({ has: page.getByLabel('Name', { exact: true }) })
      .locator('.field-error');
    await nameError.waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Triage Bot');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/triage`);
    for (const resource of ['issue', 'error', 'comment']) await page.getByLabel(resource, { exact: true }).check();
    await page.getByLabel('event:write').check();
    await screenshot(page, 'developer-settings-new-internal');
    await page.getByRole('button', { name: 'Save integration' }).click();

    await page.getByRole('heading', { name: 'Triage Bot', level: 1 }).waitFor();
    const slug = new URL(page.url()).pathname.split('/')[4];
    const created = await app.request('GET', `/api/0/sentry-apps/${slug}/`);
    expect(created.body).toMatchObject({ name: 'Triage Bot', status: 'internal', webhookUrl: `${receiver.url}/triage` });
    expect([...created.body.events].sort()).toEqual(['comment', 'error', 'issue']);
    expect(created.body.scopes).toEqual(expect.arrayContaining(['event:read', 'event:write', 'project:read']));

    await page.getByRole('button', { name: 'Show secret' }).click();
    expect((await page.locator('code.secret').textContent())?.length).toBeGreaterThan(16);
    await page.getByRole('button', { name: 'New token' }).click();
    const token = (await page.locator('.shown-once code').textContent())!;
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(200);
    await screenshot(page, 'developer-settings-app');
    const revoke = page.getByRole('button', { name: `Revoke the token ending in ${token.slice(-4)}` });
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(401);
  });

  it('installs the internal integration and lists the installation', async () => {
    await installFromIntegrationsPage('Triage Bot');
    const [installation] = (await installations()).filter((item) => item.app.slug.startsWith('triage-bot'));
    expect(installation).toMatchObject({ status: 'installed' });
    await screenshot(page, 'integrations');
  });

  it('creates a public integration, installs it, shows the request log, and uninstalls it', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/developer-settings/new-public/`);
    await page.getByLabel('Name', { exact: true }).fill('Public Tracker');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/public`);
    await page.getByLabel('Redirect URL').fill('https://tracker.example.com/setup');
    await page.getByLabel('issue', { exact: true }).check();
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('heading', { name: 'Public Tracker', level: 1 }).waitFor();
    const slug = new URL(page.url()).pathname.split('/')[4];

    await installFromIntegrationsPage('Public Tracker');
    const installation = (await installations()).find((item) => item.app.slug === slug);
    expect(installation).toBeDefined();
    const [delivered] = await receiver.waitFor('/public', 1, 20_000);
    expect(delivered.headers['sentry-hook-resource']).toBe('installation');

    await page.goto(`${app.baseUrl}/settings/acme/developer-settings/${slug}/dashboard/`);
    await page
      .getByRole('cell', { name: /installation/ })
      .first()
      .waitFor();
    await screenshot(page, 'developer-settings-requests');

    await page.goto(`${app.baseUrl}/settings/acme/integrations/`);
    await page.getByRole('button', { name: `Uninstall ${slug}` }).click();
    await page.getByRole('button', { name: 'Install Public Tracker', exact: true }).waitFor();
    expect((await installations()).find((item) => item.app.slug === slug)).toBeUndefined();
  });
});
