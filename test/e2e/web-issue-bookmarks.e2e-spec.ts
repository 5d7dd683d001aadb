import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { CLOCK, type Clock } from '@faultline/kernel';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;

/**
 * Bookmarks, saved searches and the time range in Chromium: star an issue, find it with
 * `bookmarks:me`, save that search and apply it again after a reload, narrow the stream to the
 * last 24 hours and see the URL and the count follow; at desktop and phone widths.
 */
describe('bookmarks, saved searches and time range (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const failures: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    const now = app.app.get<Clock>(CLOCK).now().getTime();
    const organizationId = (await app.request('GET', '/api/0/organizations/acme/')).body.id;
    const projectId = (await app.request('GET', '/api/0/projects/acme/web/')).body.id;
    const event = (fingerprint: string, title: string, ago: number): IngestedEvent => {
      const occurredAt = new Date(now - ago).toISOString();
      return {
        projectId,
        projectSlug: 'web',
        organizationId,
        eventId: randomUUID().replace(/-/g, ''),
        fingerprintHash: fingerprint,
        title,
        culprit: `app/${fingerprint}.js`,
        level: 'error',
        platform: 'node',
        occurredAt,
        receivedAt: occurredAt,
        tags: [['level', 'error']],
        data: { title, level: 'error' },
      };
    };
    const database = app.app.get(Database);
    for (const events of [
      [event('fresh', 'FreshError: cart is empty', HOUR), event('fresh', 'FreshError: cart is empty', 2 * HOUR)],
      [event('stale', 'StaleError: token expired', 3 * 24 * HOUR)],
      [event('dusty', 'DustyError: cache miss', 5 * 24 * HOUR)],
    ]) {
      await database.transaction((tx) => app.app.get(IssueIngestion).recordEvents(tx, events));
    }
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
    expect(failures.splice(0)).toEqual([]);
  });

  const rows = () => page.locator('.issue-rows > li');
  const searchBox = () => page.getByRole('combobox', { name: 'Search issues' });
  const count = () => page.locator('.stream-count');

  async function expectNoOverflow(width: number): Promise<void> {
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    const widest = await page.evaluate<number>(`(() => {
      let right = 0;
      for (const element of document.getElementById('main').querySelectorAll('*')) right = Math.max(right, element.getBoundingClientRect().right);
      return right;
    })()`);
    expect(widest).toBeLessThanOrEqual(width);
  }

  it('bookmarks an issue on its page and in bulk, and finds them with bookmarks:me', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    await rows().nth(2).waitFor();
    expect(await count().textContent()).toBe('1–3 of 3');

    await rows().filter({ hasText: 'FreshError' }).getByRole('link').first().click();
    const star = page.getByRole('button', { name: 'Bookmark' });
    await star.waitFor();
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await page.locator('.bookmark-toggle[aria-pressed="true"]').waitFor();

    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    await rows().nth(2).waitFor();
    await rows().filter({ hasText: 'FreshError' }).getByRole('img', { name: 'Bookmarked' }).waitFor();
    await rows().filter({ hasText: 'StaleError' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: '☆ Bookmark' }).click();
    await rows().filter({ hasText: 'StaleError' }).getByRole('img', { name: 'Bookmarked' }).waitFor();

    await searchBox().fill('bookmarks:me');
    await searchBox().press('Enter');
    await page.waitForURL(/query=bookmarks%3Ame/);
    await rows().filter({ hasText: 'DustyError' }).waitFor({ state: 'detached' });
    expect(await rows().count()).toBe(2);
    expect(await count().textContent()).toBe('1–2 of 2');
  });

  it('saves the search and applies it again after a reload, then deletes it', async () => {
    await page.getByRole('button', { name: 'Saved searches' }).click();
    await page.getByRole('menuitem', { name: 'Save current search…' }).click();
    await page.getByLabel('Name').fill('My bookmarks');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('form', { name: 'Save the current search' }).waitFor({ state: 'detached' });

    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=is:resolved`);
    await page.getByText('No issues match this search.').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Saved searches' }).click();
    await page.getByRole('menuitem', { name: 'My bookmarks', exact: true }).click();
    await page.waitForURL(/query=bookmarks%3Ame/);
    await rows().nth(1).waitFor();
    expect(await rows().count()).toBe(2);
    expect(await searchBox().inputValue()).toBe('bookmarks:me');
    const saved = (await app.request('GET', '/api/0/organizations/acme/searches/')).body;
    expect(saved).toEqual([expect.objectContaining({ name: 'My bookmarks', query: 'bookmarks:me', sort: 'date', visibility: 'owner' })]);

    await page.getByRole('button', { name: 'Saved searches' }).click();
    await page.getByRole('menuitem', { name: 'Delete “My bookmarks”' }).click();
    await page.getByRole('button', { name: 'Saved searches' }).click();
    await page.getByRole('menuitem', { name: 'None saved yet' }).waitFor();
    await page.keyboard.press('Escape');
    expect((await app.request('GET', '/api/0/organizations/acme/searches/')).body).toEqual([]);
  });

  it('narrows the stream to the last 24 hours, in the URL and the count', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    await rows().nth(2).waitFor();
    await page.getByLabel('Time range').selectOption({ label: 'Last 24 hours' });
    await page.waitForURL(/statsPeriod=24h/);
    await rows().filter({ hasText: 'StaleError' }).waitFor({ state: 'detached' });
    expect(await rows().count()).toBe(1);
    await count().filter({ hasText: '1–1 of 1' }).waitFor();
    await page.reload();
    await rows().filter({ hasText: 'FreshError' }).waitFor();
    expect(await page.getByLabel('Time range').inputValue()).toBe('24h');
    expect(await count().textContent()).toBe('1–1 of 1');

    await page.getByLabel('Time range').selectOption({ label: 'Last 7 days' });
    await page.waitForURL(/statsPeriod=7d/);
    await count().filter({ hasText: '1–3 of 3' }).waitFor();
    await screenshot(page, 'issues-time-range', 'issues-time-range');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Saved searches' }).click();
    await page.getByRole('menuitem', { name: 'Save current search…' }).click();
    await page.getByLabel('Name').waitFor();
    await expectNoOverflow(390);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Time range').selectOption({ label: 'Custom range…' });
    await page.getByLabel('From').waitFor();
    await expectNoOverflow(390);
    await screenshot(page, 'issues-time-range-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
