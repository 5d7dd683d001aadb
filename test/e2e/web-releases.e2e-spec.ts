import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** The releases page in a real browser: what sentry-cli created, with its deploy, and the version search. */
describe('web interface: releases', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let app: TestApp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    ({ page, errors } = await newPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the releases with their last deploy, and finds one by version', async () => {
    await app.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'shop@1.0.0', projects: ['web'] } });
    await app.request('POST', '/api/0/organizations/acme/releases/', {
      body: { version: 'shop@2.0.0', projects: ['web'], dateReleased: '2026-01-02T03:04:05Z' },
    });
    await app.request('POST', '/api/0/organizations/acme/releases/shop@2.0.0/deploys/', { body: { environment: 'production' } });
    await signIn(page, app);
    await page.goto(`${app.baseUrl}/organizations/acme/releases/`);
    const rows = page.getByRole('region', { name: 'Releases' }).getByRole('row');
    await rows.filter({ hasText: '2.0.0' }).filter({ hasText: 'production' }).waitFor();
    expect(await rows.count()).toBe(3);
    await page.getByLabel('Version').fill('1.0');
    await page.getByLabel('Version').press('Enter');
    await rows.filter({ hasText: '2.0.0' }).waitFor({ state: 'detached' });
    expect(await rows.filter({ hasText: '1.0.0' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
