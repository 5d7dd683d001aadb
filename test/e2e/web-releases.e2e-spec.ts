import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** The releases page in a real browser: what sentry-cli created, with its deploy, the version search, and crash-free rates. */
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

  it("shows a release's crash-free rates once it has sessions", async () => {
    const key = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
    const started = new Date(Date.now() - 60_000).toISOString();
    const session = (did: string, status: string) => ({
      sid: randomUUID(),
      did,
      init: true,
      status,
      errors: status === 'crashed' ? 1 : 0,
      started,
      attrs: { release: 'shop@2.0.0' },
    });
    const items = [session('u-1', 'exited'), session('u-2', 'exited'), session('u-3', 'exited'), session('u-4', 'crashed')];
    const body = [JSON.stringify({}), ...items.flatMap((item) => [JSON.stringify({ type: 'session' }), JSON.stringify(item)])].join('\n');
    const sent = await fetch(`${app.baseUrl}/api/${key.projectId}/envelope/?sentry_key=${key.public}`, { method: 'POST', body });
    expect(sent.status).toBe(200);
    await page.goto(`${app.baseUrl}/organizations/acme/releases/`);
    const table = page.getByRole('region', { name: 'Releases' });
    await table.getByRole('columnheader', { name: 'Crash-free sessions' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: '2.0.0' });
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['75%', '75%']));
    expect(await table.getByRole('row').filter({ hasText: '1.0.0' }).getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['—', '—']));
    expect(errors).toEqual([]);
  });
});
