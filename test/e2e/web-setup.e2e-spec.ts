import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const DSN = /^http:\/\/[0-9a-f]{32}@127\.0\.0\.1:\d+\/\d+$/;

/**
 * Setting up in Chromium, at desktop and phone width: a new user creates a project and copies its
 * DSN and an SDK snippet, manages its keys, edits the project, a service hook and an integration
 * after creating them, and an instance administrator changes an organization's plan from the SSO
 * page's message. No page error, no request failing unexpectedly, no sideways scrolling on a phone.
 */
describe.each([
  ['desktop', 1280],
  ['mobile', 390],
])('web interface: setup pages (browser, %s)', (viewport, width) => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  /** Answers of 400 or more the step does not expect, and requests that failed outright. */
  const failures: string[] = [];
  let expectedFailures: RegExp[] = [];
  /** A test artifact; also the docs' picture when taken at the width named. */
  const shot = (name: string, docsAt?: 'desktop' | 'mobile') =>
    screenshot(page, `setup-${viewport}-${name}`, docsAt === viewport ? `${name}${viewport === 'mobile' ? '-mobile' : ''}` : undefined);

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    context = await browser.newContext({ viewport: { width, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    // A request the browser drops because the test navigated away (page.goto) was not refused.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      const line = `${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`;
      if (response.status() >= 400 && !expectedFailures.some((pattern) => pattern.test(line))) failures.push(line);
    });
    // Before signing in, the interface asks who is signed in: no one, 401.
    expectedFailures = [/^401 GET \/api\/0\/auth\/$/];
    await signIn(page, app);
    expectedFailures = [];
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expectedFailures = [];
    expect(errors.splice(0)).toEqual([]);
    expect(failures.splice(0)).toEqual([]);
  });

  /** The page fits the screen: nothing scrolls sideways. */
  async function expectNoSidewaysScroll(): Promise<void> {
    const scrollWidth = await page.evaluate(
      () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
    );
    expect(scrollWidth).toBeLessThanOrEqual(width);
  }

  const clipboard = () =>
    page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

  it('serves the icon browsers ask for', async () => {
    const icon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('opens the menu on a narrow screen, and the header never overflows', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/projects/`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    const projects = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' });
    if (viewport === 'mobile') {
      expect(await projects.isVisible()).toBe(false);
      // From the keyboard: past the skip link and the home link to the menu button.
      const menu = page.getByRole('button', { name: 'Menu' });
      for (let presses = 0; presses < 5 && !(await menu.evaluate((element) => element === element.ownerDocument.activeElement)); presses++)
        await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
      await shot('menu', 'mobile');
    }
    expect(await projects.isVisible()).toBe(true);
    await expectNoSidewaysScroll();
  });

  it('creates a project, then shows its DSN and the snippet for its platform, both copyable', async () => {
    const name = `Checkout ${viewport}`;
    await page.goto(`${app.baseUrl}/settings/acme/projects/`);
    await page.getByRole('link', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Create a project' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/organizations/acme/projects/new/');

    await page.getByLabel('Project name').fill(name);
    await page.getByLabel('Python').check();
    await expectNoSidewaysScroll();
    await shot('project-new', 'desktop');

    // Without a name the API refuses, and the form says so in a sentence, next to the field.
    expectedFailures = [/^400 POST \/api\/0\/teams\/acme\/acme\/projects\/$/];
    await page.getByLabel('Project name').fill('');
    await page.getByRole('button', { name: 'Create project' }).click();
    const nameError = page
      .locator('.field')
      .filter({ has: page.getByLabel('Project name') })
      .locator('.field-error');
    await nameError.waitFor();
    expect(await nameError.textContent()).toBe('This field may not be blank.');
    await page.getByLabel('Project name').fill(name);
    await page.getByRole('button', { name: 'Create project' }).click();

    await page.getByRole('heading', { name: 'Client keys (DSN)' }).waitFor();
    await page.getByText(`Project ${name} is ready.`).waitFor();
    const slug = new URL(page.url()).pathname.split('/')[4];
    const [key] = (await app.request('GET', `/api/0/projects/acme/${slug}/keys/`)).body;
    expect(key.dsn.public).toMatch(DSN);
    expect((await app.request('GET', `/api/0/projects/acme/${slug}/`)).body.platform).toBe('python');

    // The project's platform is chosen; its snippet carries the DSN.
    expect(await page.getByRole('button', { name: 'Python', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Copy the DSN of Default' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
    expect(await clipboard()).toBe(key.dsn.public);
    await page.getByRole('button', { name: 'Copy the Python snippet' }).click();
    expect(await clipboard()).toBe(`import sentry_sdk\n\nsentry_sdk.init(\n    dsn="${key.dsn.public}",\n)`);
    await page.getByRole('button', { name: 'Node.js', exact: true }).click();
    await page.getByRole('button', { name: 'Copy the Node.js snippet' }).click();
    expect(await clipboard()).toContain(`dsn: "${key.dsn.public}"`);
    await expectNoSidewaysScroll();
    await page.evaluate('window.scrollTo(0, 0)');
    await shot('project-keys', viewport as 'desktop' | 'mobile');
  });

  it('renames a key and gives it a rate limit, creates, disables and deletes another', async () => {
    const slug = `checkout-${viewport}`;
    await page.goto(`${app.baseUrl}/settings/acme/projects/${slug}/keys/`);
    const first = page.getByRole('region', { name: 'Default' });
    await first.getByLabel('Name').fill('Production');
    await first.getByLabel('Rate limit (events)').fill('100');
    await first.getByLabel('Per (seconds)').fill('60');
    await first.getByRole('button', { name: 'Save key' }).click();
    await page.getByRole('region', { name: 'Production' }).waitFor();
    const keys = async () =>
      (await app.request('GET', `/api/0/projects/acme/${slug}/keys/`)).body as Array<{ name: string; isActive: boolean; rateLimit: unknown }>;
    expect((await keys())[0]).toMatchObject({ name: 'Production', rateLimit: { count: 100, window: 60 } });

    await page.getByRole('button', { name: 'Create a key' }).click();
    const second = page.getByRole('region', { name: 'Key 2' });
    await second.getByRole('button', { name: 'Disable' }).click();
    await second.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await keys()).find((key) => key.name === 'Key 2')?.isActive).toBe(false);
    await second.getByRole('button', { name: 'Delete' }).click();
    await second.waitFor({ state: 'detached' });
    expect((await keys()).map((key) => key.name)).toEqual(['Production']);
    await expectNoSidewaysScroll();
  });

  it('edits the project, and its page charts the events it received', async () => {
    const slug = `checkout-${viewport}`;
    const [key] = (await app.request('GET', `/api/0/projects/acme/${slug}/keys/`)).body;
    const stored = await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, {
      token: null,
      body: { message: 'first error', level: 'error' },
    });
    expect(stored.status).toBe(200);
    await app.app.get(EventProcessing).drain();

    await page.goto(`${app.baseUrl}/settings/acme/projects/${slug}/`);
    await page.getByLabel('Name', { exact: true }).fill(`Checkout (${viewport})`);
    await page.getByLabel('Platform').selectOption({ label: 'Go' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await app.request('GET', `/api/0/projects/acme/${slug}/`)).body).toMatchObject({ name: `Checkout (${viewport})`, platform: 'go' });
    await expectNoSidewaysScroll();
    await shot('project-settings');

    await page.goto(`${app.baseUrl}/organizations/acme/projects/${slug}/`);
    const chart = page.getByRole('img', { name: /Events per hour over the last 24 hours\. Accepted: 1,/ });
    await chart.waitFor();
    await expectNoSidewaysScroll();
    await shot('project', 'desktop');
  });

  it('edits a service hook after creating it', async () => {
    const created = await app.request('POST', '/api/0/projects/acme/web/hooks/', {
      body: { url: `https://hooks.example.test/${viewport}`, events: ['event.created'] },
    });
    expect(created.status).toBe(201);
    await page.goto(`${app.baseUrl}/settings/acme/projects/web/hooks/${created.body.id}/`);
    const edit = page.getByRole('region', { name: 'Edit' });
    expectedFailures = [/^400 PUT \/api\/0\/projects\/acme\/web\/hooks\/[0-9a-f]+\/$/];
    await edit.getByLabel('Callback URL').fill('not a url');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.locator('.field-error').waitFor();
    await edit.getByLabel('Callback URL').fill(`https://hooks.example.test/${viewport}/v2`);
    await edit.getByLabel('event.alert').check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const hook = (await app.request('GET', `/api/0/projects/acme/web/hooks/${created.body.id}/`)).body;
    expect(hook.url).toBe(`https://hooks.example.test/${viewport}/v2`);
    expect([...hook.events].sort()).toEqual(['event.alert', 'event.created']);
    await expectNoSidewaysScroll();
  });

  it('edits an integration after creating it', async () => {
    const created = await app.request('POST', '/api/0/sentry-apps/', {
      body: { name: `Deploy Bot ${viewport}`, organization: 'acme', isInternal: true, scopes: ['project:read'] },
    });
    expect(created.status).toBe(201);
    await page.goto(`${app.baseUrl}/settings/acme/developer-settings/${created.body.slug}/`);
    await page.getByRole('heading', { name: 'Edit' }).waitFor();
    await page.getByLabel('Webhook URL').fill(`https://bots.example.test/${viewport}`);
    await page.getByLabel('issue', { exact: true }).check();
    await page.getByLabel('event:read').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const changed = (await app.request('GET', `/api/0/sentry-apps/${created.body.slug}/`)).body;
    expect(changed).toMatchObject({ webhookUrl: `https://bots.example.test/${viewport}`, events: ['issue'] });
    expect(changed.scopes).toContain('event:read');
    await expectNoSidewaysScroll();

    await page.goto(`${app.baseUrl}/settings/acme/integrations/`);
    await page.getByText(/Integrations you build in/).waitFor();
    await expectNoSidewaysScroll();
  });

  it('lets an instance administrator change the plan from the SSO page, which then takes a PEM certificate', async () => {
    await page.goto(`${app.baseUrl}/settings/acme/auth/`);
    await page.getByText(/need the business or enterprise plan/).waitFor();
    await page.getByRole('link', { name: 'Change the plan' }).click();
    await page.getByRole('heading', { name: 'Instance administration' }).waitFor();
    const acme = page.getByRole('form', { name: 'Organization acme' });
    await acme.getByLabel('Plan').selectOption('business');
    await acme.getByRole('button', { name: 'Save acme' }).click();
    await acme.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await app.request('GET', '/api/0/organizations/acme/')).body.plan).toBe('business');
    await expectNoSidewaysScroll();
    await shot('instance-admin', 'mobile');

    await page.goto(`${app.baseUrl}/settings/acme/auth/`);
    const certificate = page.getByLabel('X.509 certificate');
    await certificate.waitFor();
    expect(await certificate.evaluate((element) => element.tagName)).toBe('TEXTAREA');
    await page.getByLabel('Configure from').selectOption('metadataXml');
    expect(await page.getByLabel('Metadata XML').evaluate((element) => element.tagName)).toBe('TEXTAREA');
    await page.getByLabel('Configure from').selectOption('manual');
    expect(await page.getByText(/need the business or enterprise plan/).count()).toBe(0);
    await expectNoSidewaysScroll();
    await shot('auth');
  });

  it('fits every other page on the screen', async () => {
    for (const path of [
      '/settings/acme/members/',
      '/settings/acme/teams/',
      '/settings/acme/developer-settings/',
      '/settings/account/api/auth-tokens/',
      '/settings/acme/projects/web/hooks/',
    ]) {
      await page.goto(`${app.baseUrl}${path}`);
      await page.locator('h1').first().waitFor();
      await page.locator('.skeleton').first().waitFor({ state: 'detached' });
      await expectNoSidewaysScroll();
    }
  });
});
