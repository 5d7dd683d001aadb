import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { FixedClock } from '@faultline/kernel';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/** Two-factor authentication in Chromium: enrolling an authenticator app, signing in with its code, and requiring it of an organization. */
describe('web interface: two-factor authentication (browser)', () => {
  const clock = new FixedClock(new Date('2026-03-02T10:00:00Z'));
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp({}, { clock });
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

  it('enrols an authenticator app, shows the recovery codes once, and asks for a code at the next sign-in', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Account security' }).click();
    await page.getByRole('heading', { name: 'Account security', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('.qr-code svg').waitFor();
    const secret = (await page.locator('code.secret').textContent())!.trim();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Invalid confirmation code. Try again.').waitFor();
    await page.getByLabel('Code').fill(await code(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const shown = (await page.locator('.shown-once pre').textContent())!.trim().split('\n');
    expect(shown).toHaveLength(10);
    await page.getByText('10 of 10 unused.').waitFor();
    await screenshot(page, 'account-security');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail address').fill(BOOTSTRAP.email);
    await page.getByLabel('Password').fill(BOOTSTRAP.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByLabel('Code').fill('123456');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Invalid confirmation code. Try again.').waitFor();
    clock.advance(30_000);
    await page.getByLabel('Code').fill(await code(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
  });

  it('lets an owner with a second factor require it of the organization', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/auth/`);
    await page.getByRole('button', { name: 'Require two-factor authentication' }).click();
    await page.getByRole('button', { name: 'Stop requiring two-factor authentication' }).waitFor();
    expect((await app.request('GET', '/api/0/organizations/acme/')).body.require2FA).toBe(true);
  });
});
