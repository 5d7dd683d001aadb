import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, screenshot } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);

/**
 * A new user's first error, in Chromium at desktop and phone size, each on a fresh instance: sign in,
 * create a project, copy its DSN and snippet, report errors with the official @sentry/node SDK, find
 * them by environment and by tag, read the issue's events and step between them, resolve it in the
 * next release. No page or console error, no request failing unexpectedly, no sideways scrolling.
 */
describe.each([
  ['desktop', 1280, 860],
  ['mobile', 390, 844],
])('web interface: a first error, from sign-in to resolved (browser, %s)', (viewport, width, height) => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  /** Answers of 400 or more the step does not expect, requests that failed, console errors. */
  const failures: string[] = [];
  let expectedFailures: RegExp[] = [];
  const project = { name: `Shop ${viewport}`, slug: `shop-${viewport}` };
  let dsn = '';
  let issueId = '';
  const shot = (name: string) => screenshot(page, `first-error-${viewport}-${name}`);

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    // The phone is a touch screen, and slow: its frames come 60 ms late.
    context = await browser.newContext({ viewport: { width, height }, ...(viewport === 'mobile' ? { isMobile: true, hasTouch: true } : {}) });
    if (viewport === 'mobile') {
      await context.addInitScript(
        '{ const frame = window.requestAnimationFrame.bind(window); window.requestAnimationFrame = (callback) => setTimeout(() => frame(callback), 60); }',
      );
    }
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => errors.push(error.message));
    // Chromium logs every answer of 400 or more as a console error; those the step expects are not.
    const expectedAnswers = new Set<string>();
    page.on('console', (message) => {
      if (message.type() === 'error' && !(message.text().startsWith('Failed to load resource') && expectedAnswers.has(message.location().url))) {
        failures.push(`console: ${message.text()}`);
      }
    });
    page.on('requestfailed', (request) => failures.push(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      const line = `${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`;
      if (response.status() < 400) return;
      if (expectedFailures.some((pattern) => pattern.test(line))) expectedAnswers.add(response.url());
      else failures.push(line);
    });
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
  async function expectFits(): Promise<void> {
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  }

  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');
  const section = (name: string) => page.getByRole('region', { name, exact: true });
  const searchBox = () => page.getByRole('combobox', { name: 'Search issues' });
  const suggestions = () => page.getByRole('listbox', { name: 'Suggestions' });
  const rows = () => page.locator('.issue-rows > li');

  /** Waits until the SDK's events are stored and grouped: the project has one issue seen twice. */
  async function grouped(): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      await app.app.get(EventProcessing).drain();
      const issues = (await app.request('GET', `/api/0/projects/acme/${project.slug}/issues/?query=`)).body as Array<{ id: string; count: string }>;
      if (issues.length === 1 && issues[0].count === '2') {
        issueId = issues[0].id;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the SDK events were not grouped into one issue in time');
  }

  it('signs in on the sign-in page', async () => {
    // Before signing in, the interface asks who is signed in: no one, 401.
    expectedFailures = [/^401 GET \/api\/0\/auth\/$/];
    await page.goto(`${app.baseUrl}/auth/login/`);
    await page.getByLabel('E-mail address').fill(BOOTSTRAP.email);
    await page.getByLabel('Password').fill(BOOTSTRAP.password);
    await expectFits();
    await shot('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
    await expectFits();
  });

  it('creates a project and copies its DSN and the Node.js snippet', async () => {
    // Clicked to, as a user gets there: Projects in the menu (behind the Menu button on a phone).
    if (viewport === 'mobile') await page.getByRole('button', { name: 'Menu' }).tap();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await expectFits();
    await page.getByRole('link', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Create a project' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/organizations/acme/projects/new/');
    await page.getByLabel('Project name').fill(project.name);
    await page.getByLabel('Node.js').check();
    await expectFits();
    await shot('project-new');
    await page.getByRole('button', { name: 'Create project' }).click();

    await page.getByRole('heading', { name: 'Client keys (DSN)' }).waitFor();
    await page.getByText(`Project ${project.name} is ready.`).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/settings/acme/projects/${project.slug}/keys/`);
    await page.getByRole('button', { name: 'Copy the DSN of Default' }).click();
    dsn = await clipboard();
    const [key] = (await app.request('GET', `/api/0/projects/acme/${project.slug}/keys/`)).body;
    expect(dsn).toBe(key.dsn.public);
    expect(await page.getByText(dsn, { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Node.js', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Copy the Node.js snippet' }).click();
    expect(await clipboard()).toContain(`dsn: "${dsn}"`);
    await expectFits();
    await shot('project-keys');
  });

  it('receives the errors the @sentry/node SDK reports with that DSN', async () => {
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'first-errors'], { timeout: 30_000 });
    await grouped();
  });

  it('finds the issue by environment and by tag in the search box', async () => {
    // From the keys page's welcome, where the user still is.
    await page.getByRole('status').filter({ hasText: 'is ready' }).getByRole('link', { name: 'Issues' }).click();
    await rows().filter({ hasText: 'TypeError' }).waitFor();
    await expectFits();

    // A search that matches nothing shows nothing, so the matches below are the search's doing.
    await searchBox().fill('environment:staging');
    await searchBox().press('Enter');
    await page.getByText('No issues match this search.').waitFor();
    await expectFits();

    // Typed whole and searched with Enter. On a slow network the box's suggestions for the value
    // arrive after the search was made: they must not open the list over the results.
    const values = /\/tags\/environment\/values\/\?.*query=/;
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(values, async (route) => {
      await held;
      await route.continue();
    });
    await searchBox().fill('environment:production');
    await searchBox().press('Enter');
    await page.waitForURL((url) => url.searchParams.get('query') === 'environment:production');
    await rows().filter({ hasText: 'TypeError' }).waitFor();
    const suggested = page.waitForResponse(values);
    answer();
    await suggested;
    await page.unroute(values);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await suggestions().isVisible()).toBe(false);
    expect(await rows().count()).toBe(1);
    await expectFits();
    await shot('search-environment');

    // The tag picked from the suggestions, key then value, with a finger on the phone.
    const pick = (option: Locator) => (viewport === 'mobile' ? option.tap() : option.click());
    await searchBox().fill('');
    await searchBox().pressSequentially('feat');
    await pick(suggestions().getByRole('option', { name: /^feature:/ }));
    // Typing on at once: the keys go after the suggestion taken, even when frames come late.
    await searchBox().pressSequentially('check', { delay: 30 });
    expect(await searchBox().inputValue()).toBe('feature:check');
    await pick(suggestions().getByRole('option', { name: /checkout/ }));
    expect(await searchBox().inputValue()).toBe('feature:checkout ');
    await expectFits();
    await shot('search-suggestions');
    await pick(page.getByRole('button', { name: 'Search', exact: true }));
    await page.waitForURL((url) => url.searchParams.get('query') === 'feature:checkout');
    await rows().filter({ hasText: 'TypeError' }).waitFor();
    expect(await rows().count()).toBe(1);
    await expectFits();
    await shot('search-tag');
  });

  it('opens the issue and reads breadcrumbs, request, user and contexts', async () => {
    await page.getByRole('link', { name: /TypeError/ }).click();
    await page.getByRole('heading', { name: /TypeError/, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/organizations/acme/issues/${issueId}/`);
    await section('Breadcrumbs').waitFor();

    const crumbs = await section('Breadcrumbs').locator('tbody tr').allTextContents();
    expect(crumbs.some((crumb) => /navigation.*opened \/cart/.test(crumb))).toBe(true);
    expect(crumbs.some((crumb) => /http.*warning.*POST.*pay\.example\.com\/charge.*502/.test(crumb))).toBe(true);
    // The warning's marker, 3 px at the row's left edge, sits beside its time, not over it.
    const warning = section('Breadcrumbs').locator('tr.crumb-warning');
    const [row, time] = await Promise.all([warning.boundingBox(), warning.locator('code').first().boundingBox()]);
    expect(time!.x - row!.x).toBeGreaterThanOrEqual(5);
    const request = (await section('Request').textContent())!;
    for (const text of ['POST', 'https://shop.example.com/cart/checkout', 'coupon', 'SPRING', 'e2e-agent/1.0']) expect(request).toContain(text);
    expect(await section('User').textContent()).toContain('second@example.com');
    expect(await page.getByRole('region', { name: 'cart' }).textContent()).toMatch(/items\s*2/);
    expect(await page.getByRole('region', { name: 'Runtime' }).textContent()).toContain('node');
    expect(await page.getByRole('region', { name: 'Event' }).getByRole('region', { name: 'Tags' }).textContent()).toMatch(/feature\s*checkout/);
    await expectFits();
    await shot('issue');
  });

  it('steps through the issue’s events, older and newer', async () => {
    const user = () => section('User');
    await user().getByText('second@example.com').waitFor();
    expect(await page.getByRole('button', { name: 'Newer event' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Older event' }).click();
    await user().getByText('first@example.com').waitFor();
    expect(await page.getByRole('button', { name: 'Older event' }).isDisabled()).toBe(true);
    await expectFits();
    await page.getByRole('link', { name: 'Newer event' }).click();
    await user().getByText('second@example.com').waitFor();
    await expectFits();

    await page.getByRole('link', { name: 'All events' }).click();
    const events = page.locator('table.event-list tbody tr');
    await events.nth(1).waitFor();
    expect(await events.count()).toBe(2);
    expect(await events.first().textContent()).toMatch(/production.*shop@1\.0\.0.*second@example\.com/);
    await expectFits();
    await shot('events');
  });

  it('resolves the issue in the next release from the Resolve menu', async () => {
    await page.getByRole('link', { name: 'Details' }).click();
    await section('User').getByText('second@example.com').waitFor();
    await page.getByRole('button', { name: 'More resolve options' }).click();
    const menu = page.getByRole('menu', { name: 'More resolve options' });
    await menu.waitFor();
    await expectFits();
    await shot('resolve-menu');
    await menu.getByRole('menuitem', { name: 'In the next release' }).click();
    await page.getByText('Resolved in the next release').waitFor();
    const issue = (await app.request('GET', `/api/0/organizations/acme/issues/${issueId}/`)).body;
    expect(issue).toMatchObject({ status: 'resolved', statusDetails: { inNextRelease: true } });
    await page.getByRole('button', { name: 'Unresolve' }).waitFor();
    await expectFits();
    await shot('resolved');

    // The stream agrees: no longer among the unresolved, listed among the resolved.
    await page.locator('.breadcrumb').getByRole('link', { name: 'Issues' }).click();
    await page.getByRole('link', { name: 'Unresolved' }).click();
    await page.getByText('No issues match this search.').waitFor();
    await expectFits();
    await page.getByRole('link', { name: 'Resolved', exact: true }).click();
    await rows().filter({ hasText: 'TypeError' }).waitFor();
    expect(await rows().count()).toBe(1);
    await expectFits();
  });
});
