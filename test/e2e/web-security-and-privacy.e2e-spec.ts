import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** The Security & Privacy settings of a project and of its organization, in Chromium, saved through Sentry's PUTs. */
describe('web interface: security and privacy (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  it('changes what a project scrubs, and shows a refused field next to it on the organization page', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/projects/web/`);
    await page.locator('a[href="/settings/acme/projects/web/security-and-privacy/"]').click();
    await page.getByRole('heading', { name: 'Security & Privacy', level: 1 }).waitFor();
    await page.getByLabel('Use default scrubbers').waitFor();
    expect(await page.getByLabel('Data scrubber').isChecked()).toBe(true);
    await page.getByLabel('Prevent storing of IP addresses').check();
    await page.getByLabel('Additional sensitive fields').fill('order_ref\n  card_holder \n');
    await page.getByLabel('Safe fields').fill('extra.trace');
    await screenshot(page, 'project-security-and-privacy');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await app.request('GET', '/api/0/projects/acme/web/')).body).toMatchObject({
      dataScrubber: true,
      dataScrubberDefaults: true,
      scrubIPAddresses: true,
      sensitiveFields: ['order_ref', 'card_holder'],
      safeFields: ['extra.trace'],
      storeCrashReports: null,
    });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security & Privacy' }).click();
    await page.getByLabel('Store minidumps as attachments').waitFor();
    await page.getByLabel('Safe fields').fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .locator('.field')
      .filter({ has: page.getByLabel('Safe fields') })
      .locator('.field-error')
      .waitFor();
    await page.getByLabel('Safe fields').fill('');
    await page.getByLabel('Data scrubber').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await app.request('GET', '/api/0/organizations/acme/')).body).toMatchObject({ dataScrubber: true, safeFields: [], storeCrashReports: 0 });
  });
});
