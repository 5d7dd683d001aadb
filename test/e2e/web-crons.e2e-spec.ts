import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** Crons in a real browser: a monitor made through the API, its HTTP check-ins, the list's status and timeline, the monitor page. */
describe('web interface: crons', () => {
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

  it('lists the monitors with their status and latest check-ins, and shows one monitor', async () => {
    const created = await app.request('POST', '/api/0/organizations/acme/monitors/', {
      body: { name: 'Billing sync', project: 'web', config: { schedule_type: 'interval', schedule: [1, 'hour'], checkin_margin: 5 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'billing-sync', type: 'cron_job', config: { schedule_type: 'interval', schedule: [1, 'hour'] } });
    expect(
      (await app.request('POST', '/api/0/organizations/acme/monitors/', { body: { name: 'Broken', project: 'web', config: { schedule: '61 * * * *' } } }))
        .status,
    ).toBe(400);

    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    const url = (status: string) => `${app.baseUrl}/api/${keys.body[0].projectId}/cron/billing-sync/${keys.body[0].public}/?status=${status}`;
    expect((await fetch(url('ok'))).status).toBe(202);
    expect((await fetch(url('error'), { method: 'POST' })).status).toBe(202);

    await signIn(page, app);
    await page.goto(`${app.baseUrl}/organizations/acme/crons/`);
    const row = page.getByRole('region', { name: 'Monitors' }).getByRole('row').filter({ hasText: 'Billing sync' });
    await row.getByRole('list', { name: 'Last 2 check-ins, 1 failed' }).waitFor();
    expect(await row.textContent()).toContain('error');
    expect(await row.textContent()).toContain('every 1 hour');

    await row.getByRole('link', { name: 'Billing sync' }).click();
    await page.getByRole('heading', { name: 'Billing sync' }).waitFor();
    const checkIns = page.getByRole('region', { name: 'Check-ins' }).getByRole('row');
    await checkIns.filter({ hasText: 'error' }).waitFor();
    expect(await checkIns.count()).toBe(3);
    expect(errors).toEqual([]);
  });
});
