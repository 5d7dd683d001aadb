import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const SETTINGS = `/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/`;

/**
 * Ownership rules in Chromium: an admin writes a rule on the project's Ownership rules page (a
 * wrong owner is shown beside the rules), saves it, an event arrives through the store API and its
 * new issue is assigned to the team; a plain member sees the rules read-only. At 1280 and 390 px.
 */
describe('web interface: ownership rules', () => {
  let browser: Browser;
  let app: TestApp;
  let admin: Page;
  let adminErrors: string[];
  const failures: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    expect((await app.request('POST', '/api/0/organizations/acme/teams/', { body: { name: 'Frontend', slug: 'frontend' } })).status).toBe(201);
    ({ page: admin, errors: adminErrors } = await newPage(browser));
    await signIn(admin, app);
    admin.on('response', (response) => {
      // The wrong owner's refusal is the one answer this test expects to fail.
      if (response.status() >= 400 && !(response.status() === 400 && response.url().endsWith('/ownership/'))) {
        failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      }
    });
    admin.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('400')) failures.push(`console: ${message.text()}`);
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(adminErrors.splice(0)).toEqual([]);
    expect(failures.splice(0)).toEqual([]);
  });

  it('saves a rule typed on the page, shows a wrong owner beside the rules, and assigns the next new issue to the team', async () => {
    await admin.goto(`${app.baseUrl}${SETTINGS}`);
    await admin.getByRole('link', { name: 'Ownership rules' }).click();
    await admin.getByRole('heading', { name: 'Ownership rules', level: 1 }).waitFor();
    const rules = admin.getByLabel('Ownership rules');
    await rules.fill('path:src/checkout/* #payments');
    await admin.getByRole('button', { name: 'Save rules' }).click();
    await admin.getByText('Invalid rule owners: #payments').waitFor();
    expect(await rules.getAttribute('aria-invalid')).toBe('true');

    await rules.fill('# the web client\npath:src/checkout/* #frontend');
    await admin.getByLabel('Auto-assignment').selectOption('Auto Assign to Issue Owner');
    await admin.getByRole('button', { name: 'Save rules' }).click();
    await admin.getByRole('status').filter({ hasText: 'Ownership rules saved.' }).waitFor();
    expect(await rules.getAttribute('aria-invalid')).toBeNull();
    expect(await admin.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    await screenshot(admin, 'ownership-rules', 'ownership-rules');
    const saved = (await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/ownership/`)).body;
    expect(saved.schema.rules).toEqual([
      { matcher: { type: 'path', pattern: 'src/checkout/*' }, owners: [{ type: 'team', identifier: 'frontend', id: expect.any(String) }] },
    ]);

    const [key] = (await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/keys/`)).body;
    const event = {
      event_id: randomUUID().replace(/-/g, ''),
      platform: 'javascript',
      level: 'error',
      exception: {
        values: [
          {
            type: 'PaymentError',
            value: 'card declined',
            stacktrace: { frames: [{ filename: 'src/checkout/pay.js', function: 'pay', lineno: 7, in_app: true }] },
          },
        ],
      },
    };
    expect((await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, { token: null, body: event })).status).toBe(200);
    await app.app.get(EventProcessing).drain();
    const [issue] = (await app.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/issues/?query=PaymentError`)).body;
    expect(issue.assignedTo).toMatchObject({ type: 'team', name: 'frontend' });

    await admin.goto(`${app.baseUrl}/organizations/${BOOTSTRAP.org}/issues/${issue.id}/`);
    await admin.getByRole('heading', { name: /PaymentError/ }).waitFor();
    // The issue page's assignee control shows the team the rule named.
    await admin.waitForFunction(`document.querySelector('#issue-assignee')?.selectedOptions[0]?.textContent === '#frontend'`);
  });

  it('shows a plain member the rules read-only, and keeps the page within a 390 px wide screen', async () => {
    const invite = await app.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { body: { email: 'dev@example.test', orgRole: 'member' } });
    expect(invite.status).toBe(201);
    const { page, errors } = await newPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(invite.body.invite_link);
    await page.getByLabel('Name').fill('Dee Veloper');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: `Join ${BOOTSTRAP.org}` }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();

    await page.goto(`${app.baseUrl}${SETTINGS}ownership/`);
    await page.getByRole('heading', { name: 'Ownership rules', level: 1 }).waitFor();
    const rules = page.getByLabel('Ownership rules');
    await page.waitForFunction(`document.querySelector('textarea[name="raw"]')?.value.includes('#frontend')`);
    expect(await rules.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Auto-assignment').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save rules' }).isDisabled()).toBe(true);
    await page.getByText(/change the ownership rules/).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'ownership-rules-narrow');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
