import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { cumulativeLayoutShift, launchBrowser, newPage, screenshot, signIn, watchLayoutShifts } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met');
}

/** An error as a Node service reports it, with source context, for the docs' screenshot. */
const SHOP_EVENT = {
  event_id: 'c0ffee00c0ffee00c0ffee00c0ffee00',
  platform: 'node',
  level: 'error',
  release: 'shop@1.4.0',
  environment: 'production',
  server_name: 'web-1',
  tags: { feature: 'checkout' },
  user: { id: 'u-7', email: 'sam@example.com' },
  exception: {
    values: [
      {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'amount')",
        mechanism: { type: 'onunhandledrejection', handled: false },
        stacktrace: {
          frames: [
            { filename: 'node:internal/process/task_queues', function: 'process.processTicksAndRejections', lineno: 95, colno: 5, in_app: false },
            {
              filename: '/srv/shop/src/routes/checkout.js',
              function: 'handleCheckout',
              lineno: 42,
              colno: 24,
              in_app: true,
              pre_context: ["router.post('/checkout', async (req, res) => {", '  const cart = await carts.find(req.session.cartId);'],
              context_line: '  const receipt = await charge(cart);',
              post_context: ['  res.json(receipt);', '});'],
            },
            {
              filename: '/srv/shop/src/payments/charge.js',
              function: 'charge',
              lineno: 17,
              colno: 28,
              in_app: true,
              pre_context: ['async function charge(cart) {', '  // Amounts are in cents for the payment provider.'],
              context_line: '  const total = cart.amount * 100;',
              post_context: ['  return provider.charge({ total, currency: cart.currency });', '}'],
            },
          ],
        },
      },
    ],
  },
};

/**
 * The web interface in Chromium: sign in, add a service hook through the form and watch a real
 * delivery arrive in its log after an SDK error, resolve the issue from its page, sign out.
 */
describe('web interface (browser)', () => {
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
    await watchLayoutShifts(page);
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

  /** Sends an error from the real @sentry/node SDK and lets the workers process it now. */
  async function sendSdkError(): Promise<void> {
    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), keys.body[0].dsn.public, 'error-only'], { timeout: 30_000 });
    await app.app.get(EventProcessing).drain();
  }

  it('sends an unauthenticated visitor to the sign-in page, and signs in', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/projects/web/hooks/`);
    await page.getByRole('heading', { name: 'Sign in to Faultline' }).waitFor();
    // The sign-in page can show before the router has replaced the URL: wait for it, then check it.
    await page.waitForURL((url) => url.pathname === '/auth/login/', { timeout: 5_000 }).catch(() => undefined);
    expect(new URL(page.url()).pathname).toBe('/auth/login/');
    await page.getByLabel('E-mail address').fill('admin@acme.test');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid e-mail address or password.' }).waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, app);
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'faultline_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('adds a service hook through the form and shows a real delivery after an SDK error', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/projects/`);
    await page.getByRole('link', { name: 'web', exact: true }).click();
    await page.locator('.details code', { hasText: /^http:\/\/[0-9a-f]{32}@127\.0\.0\.1:\d+\/\d+$/ }).waitFor();
    await screenshot(page, 'project');
    await page.getByRole('link', { name: 'Service hooks' }).last().click();
    await page.getByText('No service hooks yet.').waitFor();
    await page.getByRole('link', { name: 'Add a hook' }).click();

    // A bad URL is refused, with the API's message next to the field.
    await page.getByLabel('Callback URL').fill('not a url');
    await page.getByRole('button', { name: 'Save hook' }).click();
    const urlError = page
      .locator('.field')
      .filter({ has: page.getByLabel('Callback URL') })
      .locator('.field-error');
    await urlError.waitFor();
    expect(await urlError.textContent()).toMatch(/url/i);

    await page.getByLabel('Callback URL').fill(`${receiver.url}/from-ui`);
    await page.getByLabel('event.alert').check();
    await page.getByRole('button', { name: 'Save hook' }).click();
    await page.getByRole('heading', { name: 'Service hook', exact: true }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();
    const hookPath = new URL(page.url()).pathname;
    expect(hookPath).toMatch(/^\/settings\/acme\/projects\/web\/hooks\/[0-9a-f]{32}\/$/);

    await page.getByRole('button', { name: 'Show secret' }).click();
    const secret = (await page.locator('code.secret').textContent())!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    receiver.setSecret('/from-ui', secret);

    await sendSdkError();
    await receiver.waitFor('/from-ui', 1, 20_000);
    const deliveredRow = page.locator('table.deliveries tbody tr').filter({ hasText: 'delivered' });
    for (let attempt = 0; attempt < 50 && (await deliveredRow.count()) === 0; attempt++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(200);
    }
    await deliveredRow.first().waitFor();
    const row = await deliveredRow.first().textContent();
    expect(row).toContain('event.created');
    expect(row).toContain('200');
    expect(row).toMatch(/\d+ ms/);
    await screenshot(page, 'service-hook', 'service-hook');
    await page.reload();
    await deliveredRow.first().waitFor();
    expect(await cumulativeLayoutShift(page)).toBeLessThan(0.1);

    // Redeliver sends it again to the receiver, which verifies the signature each time.
    await page
      .getByRole('button', { name: /^Redeliver / })
      .first()
      .click();
    await receiver.waitFor('/from-ui', 2, 20_000);
    expect(receiver.to('/from-ui').every((request) => request.headers['x-sentry-hook-signature'])).toBe(true);

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await app.request('GET', `/api/0/projects/acme/web/hooks/${hookPath.split('/')[6]}/`)).body.status).toBe('disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();

    await page.goto(`${app.baseUrl}/settings/acme/projects/web/hooks/`);
    await page.getByRole('link', { name: `${receiver.url}/from-ui` }).waitFor();
    await screenshot(page, 'service-hooks');
  });

  it('says so when the project has no servicehooks feature', async () => {
    await app.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Plain', slug: 'plain' } });
    await app.request('PUT', '/api/0/projects/acme/plain/', { body: { features: [] } });
    await page.goto(`${app.baseUrl}/settings/acme/projects/plain/hooks/`);
    await page.getByText('Service hooks are not enabled for this project.').waitFor();
  });

  it('lists the issue and resolves it from the issue page', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/`);
    const link = page.getByRole('link', { name: /TypeError/ });
    await link.waitFor();
    const row = (await page.locator('.issue-rows li', { has: link }).textContent())!;
    expect(row).toContain('web');
    expect(row).toContain('WEB-');
    await screenshot(page, 'issues');
    // Another project's issues only: none yet.
    await page.getByLabel('Project').selectOption({ label: 'plain' });
    await page.getByText('No issues match this search.').waitFor();
    await page.getByLabel('Project').selectOption({ label: 'web' });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { name: /TypeError/, level: 1 }).waitFor();
    await page.getByText('Card declined for amount 300').first().waitFor();
    await page.locator('.frames').getByText('chargeCard').first().waitFor();
    await page.getByText('No linked issues.').waitFor();
    await page.locator('.distributions', { hasText: 'Feature' }).waitFor();

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Comment', { exact: true }).fill('Looking into it');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.locator('.timeline').getByText('Looking into it').waitFor();
    await screenshot(page, 'issue');

    const issueId = new URL(page.url()).pathname.split('/')[4];
    const issue = async () => (await app.request('GET', `/api/0/organizations/acme/issues/${issueId}/`)).body;

    await page.getByLabel('Assignee').selectOption({ label: 'Administrator' });
    await waitUntil(async () => (await issue()).assignedTo?.email === 'admin@acme.test');
    const assignee = `user:${(await issue()).assignedTo.id}`;
    await waitUntil(async () => (await page.getByLabel('Assignee').inputValue()) === assignee);
    await page.getByRole('button', { name: 'Ignore', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Forever' }).click();
    await page.getByRole('button', { name: 'Stop ignoring', exact: true }).click();
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByRole('button', { name: 'Unresolve', exact: true }).waitFor();
    expect((await issue()).status).toBe('resolved');
  });

  it('shows an in-app frame with its source lines (the screenshot in the docs)', async () => {
    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    const stored = await app.request('POST', `/api/${keys.body[0].projectId}/store/?sentry_key=${keys.body[0].public}`, { token: null, body: SHOP_EVENT });
    expect(stored.status).toBe(200);
    await app.app.get(EventProcessing).drain();
    await page.goto(`${app.baseUrl}/organizations/acme/issues/`);
    await page.getByRole('link', { name: /Cannot read properties of undefined/ }).click();
    const current = page.locator('.source .current').first();
    await current.waitFor();
    expect(await current.textContent()).toContain('const total = cart.amount * 100;');
    await screenshot(page, 'issue-with-source');
    // Loaded afresh, the page reserves room for what arrives: nothing moves (CLS stays under 0.1, "good").
    await page.reload();
    await page.locator('.source .current').first().waitFor();
    await page.locator('.distributions li').first().waitFor();
    await page.getByText('No linked issues.').waitFor();
    expect(await cumulativeLayoutShift(page)).toBeLessThan(0.1);
  });

  it('creates and revokes an API token, shown once', async () => {
    await page.goto(`${app.baseUrl}/settings/account/api/auth-tokens/`);
    await page.getByLabel('Name').fill('deploys');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('.shown-once code').textContent())!;
    expect(token).toMatch(/^sntryu_/);
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(200);
    await screenshot(page, 'api-tokens');
    await page.getByRole('button', { name: 'Revoke deploys' }).click();
    await page.getByRole('button', { name: 'Revoke deploys' }).waitFor({ state: 'detached' });
    expect((await app.request('GET', '/api/0/projects/acme/web/', { token })).status).toBe(401);
  });

  it('shows members, teams and the SAML/SCIM settings', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/members/`);
    await page.getByRole('cell', { name: 'admin@acme.test' }).waitFor();
    await screenshot(page, 'members', 'members');
    await page.goto(`${app.baseUrl}/settings/acme/teams/`);
    await page.getByLabel('Team name').fill('Backend');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('cell', { name: /Backend/ }).waitFor();
    await screenshot(page, 'teams');
    await page.goto(`${app.baseUrl}/settings/acme/auth/`);
    await page.getByText(/need the business or enterprise plan/).waitFor();
    await screenshot(page, 'auth');
  });

  it('signs out, and the old session no longer works', async () => {
    const [session] = (await page.context().cookies()).filter((cookie) => cookie.name === 'faultline_session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Faultline' }).waitFor();
    const replay = await app.request('GET', '/api/0/organizations/', { token: null, headers: { cookie: `faultline_session=${session.value}` } });
    expect(replay.status).toBe(401);
  });
});
