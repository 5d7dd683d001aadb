import type { Browser, Page } from 'playwright-core';
import { SpikeProtectionEvaluation } from '@faultline/ingest';
import { FixedClock } from '@faultline/kernel';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** Spike protection in a real browser: the notice on the organization's pages during a spike, and the switch that turns it off. */
describe('web interface: rate limits', () => {
  const clock = new FixedClock(new Date('2030-01-15T10:20:00.000Z'));
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let app: TestApp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp({ SPIKE_PROTECTION_FLOOR: '1' }, { clock });
    ({ page, errors } = await newPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('tells of a spike on the organization pages, and lets an owner turn spike protection off', async () => {
    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    for (const message of ['first', 'second']) {
      const sent = await fetch(`${app.baseUrl}/api/${keys.body[0].projectId}/store/?sentry_key=${keys.body[0].public}`, {
        method: 'POST',
        body: JSON.stringify({ message, level: 'error' }),
      });
      expect(sent.status).toBe(200);
    }
    clock.advance(61_000);
    await app.app.get(SpikeProtectionEvaluation).evaluateDue();

    await signIn(page, app);
    await page.goto(`${app.baseUrl}/organizations/acme/issues/`);
    await page.getByRole('status').filter({ hasText: 'Spike protection is dropping' }).waitFor();

    await page.getByRole('status').getByRole('link', { name: 'Rate limits' }).click();
    await page.getByRole('heading', { name: 'Rate limits', level: 1 }).waitFor();
    await page.getByText('Spike protection is enabled').waitFor();
    await page.getByRole('button', { name: 'Turn spike protection off' }).click();
    await page.getByText('Spike protection is disabled').waitFor();
    expect((await app.request('GET', '/api/0/organizations/acme/rate-limits/')).body.spikeProtection).toMatchObject({ enabled: false, active: false });
    await page.goto(`${app.baseUrl}/organizations/acme/issues/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Spike protection is dropping' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
