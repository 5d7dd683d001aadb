import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { SmtpReceiver, textPart } from '../support/smtp-receiver';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Notification pages in Chromium: an alert rule with a chat action and its test notification, notification settings, an invitation accepted. */
describe('web interface: notifications (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const receiver = new WebhookReceiver();
  const smtp = new SmtpReceiver();

  beforeAll(async () => {
    browser = await launchBrowser();
    await receiver.start();
    await smtp.start();
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000', SMTP_URL: smtp.url });
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver.close();
    await smtp.stop();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  async function sendError(message: string): Promise<void> {
    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    const response = await fetch(`${app.baseUrl}/api/${keys.body[0].projectId}/store/?sentry_key=${keys.body[0].public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), level: 'error', message }),
    });
    expect(response.status).toBe(200);
    await app.app.get(EventProcessing).drain();
  }

  it('creates an alert rule with a Slack action, sends a test notification, and the rule posts when it fires', async () => {
    await sendError('Before the rule');
    await page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await page.getByText('No rules yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tell Slack');
    await page
      .getByRole('group', { name: /^When 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add a condition').selectOption({ label: 'The event occurs' });
    await page
      .getByRole('group', { name: /^Then 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add an action').selectOption({ label: 'Send a Slack message' });
    await page.getByLabel('Incoming webhook URL').fill(`${receiver.url}/slack`);
    await page.getByRole('button', { name: 'Send test notification' }).click();
    await page.getByText(/Test notification queued \(1 message\)/).waitFor();
    const [test] = await receiver.waitFor('/slack', 1);
    expect(JSON.parse(test.rawBody).text).toContain('Test notification');

    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'Tell Slack', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'The event occurs' }).waitFor();
    await screenshot(page, 'alert-rules', 'alert-rules');
    await sendError('After the rule');
    const posted = await receiver.waitFor('/slack', 2);
    expect(JSON.parse(posted[1].rawBody).text).toContain('After the rule');
  });

  it('turns alert mail off on the notification settings page', async () => {
    await page.goto(`${app.baseUrl}/settings/account/notifications/`);
    await page.getByLabel('Alerts').selectOption('never');
    await page.getByText('Saved. Alerts mail: Off').waitFor();
    const options = await app.request('GET', '/api/0/users/me/notification-options/');
    expect(options.body.find((option: { type: string }) => option.type === 'alerts').value).toBe('never');
  });

  it('invites someone, whose mailed link lets them choose a name and password and join', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/members/invite/`);
    await page.getByLabel('E-mail').fill('guest@acme.test');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to guest@acme.test.').waitFor();
    await page.getByRole('cell', { name: 'guest@acme.test' }).waitFor();
    const [mail] = await smtp.waitFor('guest@acme.test', 1);
    const link = /Join the organization: (\S+)/.exec(textPart(mail.raw))?.[1] ?? '';

    const guest = await newPage(browser);
    await guest.page.goto(link);
    await guest.page.getByText('You were invited as guest@acme.test. Choose your name and the password you will sign in with.').waitFor();
    await guest.page.getByLabel('Name').fill('Guest');
    await guest.page.getByLabel('Password').fill('guest password 123');
    await guest.page.getByRole('button', { name: 'Join acme' }).click();
    await guest.page.getByRole('status').filter({ hasText: 'Welcome to acme: you are a member now.' }).waitFor();
    expect(guest.errors).toEqual([]);
    const signIn = await app.request('POST', '/api/0/auth/login/', { token: null, body: { username: 'guest@acme.test', password: 'guest password 123' } });
    expect(signIn.status).toBe(200);
    await guest.page.context().close();
  });
});
