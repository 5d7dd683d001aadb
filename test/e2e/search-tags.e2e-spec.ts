import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { eventsProcessed } from '../support/events-processed';
import { startTestApp, type TestApp } from '../support/test-app';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

/** What the browser SDK sends for an error: the page's URL and User-Agent in `request`, no browser contexts. */
function browserError(type: string, options: { environment: string; release: string; handled: boolean; userAgent: string; url: string }) {
  return {
    event_id: randomUUID().replace(/-/g, ''),
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    environment: options.environment,
    release: options.release,
    server_name: 'edge node 1',
    request: { url: options.url, headers: { 'User-Agent': options.userAgent, Referer: 'https://shop.example/' } },
    exception: {
      values: [
        {
          type,
          value: 'x is undefined',
          mechanism: { type: options.handled ? 'generic' : 'auto.browser.global_handlers.onerror', handled: options.handled },
          stacktrace: { frames: [{ filename: 'https://shop.example/app.js', function: 'render', lineno: 3, colno: 9, in_app: true }] },
        },
      ],
    },
    sdk: { name: 'sentry.javascript.browser', version: '8.40.0' },
  };
}

/**
 * Tags as chips, searched (issue stream and event search), User-Agent contexts and unhandled issues,
 * from browser-SDK envelopes over HTTP and in Chromium.
 */
describe('searching by tag chips, browser data and unhandled errors', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const failures: string[] = [];

  const envelope = async (event: object) => {
    const [key] = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body;
    const body = `${JSON.stringify({ event_id: (event as { event_id: string }).event_id })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;
    const response = await fetch(`${app.baseUrl}/api/${key.projectId}/envelope/?sentry_key=${key.public}`, { method: 'POST', body });
    expect(response.status).toBe(200);
  };
  const issueTitles = async (query: string) => {
    const response = await app.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent(query)}`);
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return (response.body as Array<{ title: string }>).map((issue) => issue.title.split(':')[0]).sort();
  };
  const eventTypes = async (query: string) => {
    const response = await app.request('GET', `/api/0/organizations/acme/events/?field=title&statsPeriod=1h&query=${encodeURIComponent(query)}`);
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return (response.body.data as Array<{ title: string }>).map((row) => row.title.split(':')[0]).sort();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    // TypeError: unhandled in Chrome, staging 1.1. RangeError: handled, staging in 1.0 and production in 1.1, never both.
    await envelope(
      browserError('TypeError', { environment: 'staging', release: '1.1', handled: false, userAgent: CHROME, url: 'https://shop.example/cart/a b' }),
    );
    await envelope(browserError('RangeError', { environment: 'staging', release: '1.0', handled: true, userAgent: FIREFOX, url: 'https://shop.example/' }));
    await envelope(browserError('RangeError', { environment: 'production', release: '1.1', handled: true, userAgent: FIREFOX, url: 'https://shop.example/' }));
    await eventsProcessed(app);
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
    expect(failures.splice(0)).toEqual([]);
  });

  it('fills browser, os and device data from the User-Agent and searches it', async () => {
    const [issue] = (await app.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent('browser.name:Chrome')}`)).body;
    expect(issue.title).toMatch(/^TypeError/);
    const event = (await app.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`)).body;
    expect(event.contexts).toMatchObject({ browser: { name: 'Chrome', version: '120.0.0.0' }, os: { name: 'Windows', version: '10' } });
    expect(event.tags).toEqual(
      expect.arrayContaining([
        { key: 'browser', value: 'Chrome 120.0.0.0' },
        { key: 'browser.name', value: 'Chrome' },
        { key: 'os.name', value: 'Windows' },
        { key: 'handled', value: 'no' },
      ]),
    );
    expect(await issueTitles('os.name:Ubuntu')).toEqual(['RangeError']);
    expect(await eventTypes('browser.name:Firefox')).toEqual(['RangeError', 'RangeError']);
  });

  it('marks unhandled issues and searches them; event-level terms match one event', async () => {
    const list = (await app.request('GET', '/api/0/organizations/acme/issues/?query=')).body as Array<{ title: string; isUnhandled: boolean }>;
    expect(list.map((issue) => [issue.title.split(':')[0], issue.isUnhandled]).sort()).toEqual([
      ['RangeError', false],
      ['TypeError', true],
    ]);
    expect(await issueTitles('error.unhandled:true')).toEqual(['TypeError']);
    expect(await issueTitles('error.handled:false')).toEqual(['TypeError']);
    expect(await issueTitles('error.unhandled:false')).toEqual(['RangeError']);
    expect(await eventTypes('error.unhandled:true')).toEqual(['TypeError']);
    expect(await eventTypes('error.handled:true')).toEqual(['RangeError', 'RangeError']);
    // RangeError was in staging and in 1.1, never in one event; TypeError was.
    expect(await issueTitles('environment:staging release:1.1')).toEqual(['TypeError']);
    expect(await issueTitles('environment:staging')).toEqual(['RangeError', 'TypeError']);
    expect(await issueTitles('release:1.1')).toEqual(['RangeError', 'TypeError']);
  });

  it('every tag chip of an event finds its issue, in the stream and in event search', async () => {
    const [issue] = (await app.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent('error.unhandled:true')}`)).body;
    await page.goto(`${app.baseUrl}/organizations/acme/issues/${issue.id}/`);
    await page.locator('.issue-meta .badge-unhandled').waitFor();
    const chips = page.locator('.tag-pills a');
    await chips.first().waitFor();
    const keys = await page.locator('.tag-pills .tag-key').allTextContents();
    const values = await page.locator('.tag-pills .tag-value').allTextContents();
    const tags = keys.map((key, index) => [key, values[index]]);
    expect(tags.map(([key]) => key)).toEqual(expect.arrayContaining(['browser.name', 'handled', 'mechanism', 'url', 'server_name', 'os.name']));
    expect(await chips.count()).toBe(tags.length);
    for (const [key, value] of tags) {
      await page.goto(`${app.baseUrl}/organizations/acme/issues/${issue.id}/`);
      await page
        .locator('.tag-pills li')
        .filter({ has: page.locator('.tag-key', { hasText: new RegExp(`^${key.replace(/\./g, '\\.')}$`) }) })
        .locator('a')
        .click();
      await page.waitForURL(/\/issues\/\?/);
      const query = new URL(page.url()).searchParams.get('query') as string;
      const row = page.locator('.issue-rows > li').filter({ hasText: 'TypeError' });
      await row.waitFor();
      expect({ key, value, unhandledBadge: await row.locator('.badge-unhandled').count() }).toEqual({ key, value, unhandledBadge: 1 });
      expect({ query, events: await eventTypes(query) }).toEqual({ query, events: expect.arrayContaining(['TypeError']) });
    }
  }, 120_000);
});
