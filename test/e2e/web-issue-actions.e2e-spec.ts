import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

/** An error of its own kind (so its own issue), from a user known by e-mail. */
function errorEvent(type: string, minutesAgo: number) {
  return {
    event_id: randomUUID().replace(/-/g, ''),
    timestamp: Date.now() / 1000 - minutesAgo * 60,
    platform: 'node',
    level: 'error',
    environment: 'production',
    user: { id: '103', email: 'buyer@example.com' },
    exception: {
      values: [
        {
          type,
          value: `${type} in the cart`,
          stacktrace: { frames: [{ filename: `/srv/shop/src/${type}.js`, function: 'handle', lineno: 3, in_app: true }] },
        },
      ],
    },
  };
}

/**
 * The issue actions in Chromium: merging and deleting from the stream, the issue page's event ID,
 * JSON and share link, deleting an issue, Markdown comments that run no script, and unmerging
 * fingerprints from the issue's Merged tab.
 */
describe('issue actions (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const failures: string[] = [];

  const rows = () => page.locator('.issue-rows > li');
  const issueIdOf = async (type: string): Promise<string> =>
    (await app.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent(`"${type}"`)}`)).body[0].id;
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    const [key] = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body;
    const events = [
      errorEvent('CartError', 30),
      errorEvent('CartError', 20),
      errorEvent('CartError', 10),
      errorEvent('BasketError', 5),
      errorEvent('StaleError', 4),
      errorEvent('OldError', 3),
      errorEvent('PayError', 9),
      errorEvent('PayError', 8),
      errorEvent('ChargeError', 7),
      errorEvent('RefundError', 6),
    ];
    for (const event of events) {
      expect((await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, { token: null, body: event })).status).toBe(200);
    }
    await app.app.get(EventProcessing).drain();
    ({ page, errors } = await newPage(browser));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    await signIn(page, app);
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
    expect(failures.splice(0)).toEqual([]);
  });

  it('merges selected issues into the one with the most events, and deletes issues, from the stream', async () => {
    const [cart, basket] = [await issueIdOf('CartError'), await issueIdOf('BasketError')];
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    await rows().nth(3).waitFor();
    const merge = page.getByRole('button', { name: 'Merge', exact: true });
    await rows().filter({ hasText: 'BasketError' }).getByRole('checkbox').check();
    expect(await merge.isDisabled()).toBe(true);
    await rows().filter({ hasText: 'CartError' }).getByRole('checkbox').check();
    await merge.click();
    await rows().filter({ hasText: 'BasketError' }).waitFor({ state: 'detached' });
    await page.getByText(/Merged 2 issues into WEB-\d+\./).waitFor();
    expect(await rows().filter({ hasText: 'CartError' }).locator('.issue-events').textContent()).toContain('4');
    const merged = (await app.request('GET', `/api/0/organizations/acme/issues/${basket}/`)).body;
    expect(merged).toMatchObject({ id: cart, count: '4' });

    // A merged issue's address shows the issue it went into.
    await page.goto(`${app.baseUrl}/organizations/acme/issues/${basket}/`);
    await page.waitForURL(new RegExp(`/issues/${cart}/$`));
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.locator('.timeline', { hasText: 'merged 1 issue into this issue' }).waitFor();

    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    const stale = await issueIdOf('StaleError');
    await rows().filter({ hasText: 'StaleError' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await rows().filter({ hasText: 'StaleError' }).waitFor({ state: 'detached' });
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${stale}/`)).status).toBe(404);
  });

  it('copies the event ID and the issue link, opens the event JSON, and deletes the issue after asking', async () => {
    const old = await issueIdOf('OldError');
    const latest = (await app.request('GET', `/api/0/organizations/acme/issues/${old}/events/latest/`)).body;
    await page.goto(`${app.baseUrl}/organizations/acme/issues/${old}/`);
    await page.getByText('No other issue of this project has the same title or culprit.').waitFor();
    await page.getByRole('button', { name: 'Copy event ID' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
    expect(await clipboard()).toBe(latest.eventID);

    const [json] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: /Event JSON/ }).click()]);
    await json.waitForLoadState();
    expect(JSON.parse((await json.locator('body').textContent()) ?? '')).toMatchObject({ event_id: latest.eventID });
    await json.close();

    await page.getByRole('button', { name: 'Copy issue link' }).click();
    expect(await clipboard()).toBe((await app.request('GET', `/api/0/organizations/acme/issues/${old}/`)).body.permalink);

    await page.getByRole('link', { name: 'All events' }).click();
    expect(await page.locator('table.event-list tbody tr').first().textContent()).toContain('buyer@example.com');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/organizations\/acme\/issues\/$/);
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${old}/`)).status).toBe(404);
  });

  it('renders Markdown in comments and runs none of the HTML or script links written in them', async () => {
    const cart = await issueIdOf('CartError');
    await page.goto(`${app.baseUrl}/organizations/acme/issues/${cart}/activity/`);
    const payload = [
      '**Fixed** in [the patch](https://example.com/patch) and `charge()`.',
      '<img src=x onerror="window.__xss = 1"> <script>window.__xss = 2</script>',
      '[click](javascript:window.__xss=3) <a href="javascript:window.__xss=4" onclick="window.__xss=5">raw</a>',
    ].join('\n');
    await page.getByLabel('Comment', { exact: true }).fill(payload);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const note = page.locator('.timeline .note');
    await note.waitFor();
    expect(await note.locator('strong').textContent()).toBe('Fixed');
    expect(await note.locator('code').textContent()).toBe('charge()');
    const link = note.getByRole('link', { name: 'the patch' });
    expect(await link.getAttribute('href')).toBe('https://example.com/patch');
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await link.getAttribute('target')).toBe('_blank');
    // Written HTML shows as text; the script link keeps its text and loses its address.
    expect(await note.textContent()).toContain('<img src=x onerror="window.__xss = 1">');
    expect(await note.locator('img, script, [onerror], [onclick]').count()).toBe(0);
    expect(await note.getByText('click').getAttribute('href')).toBeNull();
    await note.getByText('click').click();
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${cart}/comments/`)).body[0].data.text).toBe(payload);
  });

  it('unmerges checked fingerprints from the Merged tab into a new issue, after asking, and links it; within 1280 and 390 px', async () => {
    const ids = [await issueIdOf('PayError'), await issueIdOf('ChargeError'), await issueIdOf('RefundError')];
    const merged = await app.request('PUT', `/api/0/organizations/acme/issues/?${ids.map((id) => `id=${id}`).join('&')}`, { body: { merge: 1 } });
    const pay = merged.body.merge.parent as string;
    expect(pay).toBe(ids[0]);

    await page.goto(`${app.baseUrl}/organizations/acme/issues/${pay}/`);
    await page.getByRole('link', { name: 'Merged', exact: true }).click();
    await page.waitForURL(new RegExp(`/issues/${pay}/merged/$`));
    const hashes = page.locator('.merged-hashes > li');
    await hashes.nth(2).waitFor();
    const unmerge = page.getByRole('button', { name: 'Unmerge', exact: true });
    expect(await unmerge.isDisabled()).toBe(true);
    for (const type of ['PayError', 'ChargeError', 'RefundError']) await hashes.filter({ hasText: type }).getByRole('checkbox').check();
    // Every fingerprint is no unmerge: the issue keeps one.
    expect(await unmerge.isDisabled()).toBe(true);
    await page.getByText('An issue keeps at least one fingerprint.').waitFor();
    await hashes.filter({ hasText: 'PayError' }).getByRole('checkbox').uncheck();
    let asked = '';
    page.once('dialog', (dialog) => void (asked = dialog.message()));
    await unmerge.click();
    const notice = page.getByRole('status').filter({ hasText: /Unmerged into WEB-\d+\./ });
    await notice.waitFor();
    expect(asked).toBe('Unmerge 2 fingerprints into a new issue? Their events move with them.');
    await hashes.filter({ hasText: 'ChargeError' }).waitFor({ state: 'detached' });
    expect(await hashes.count()).toBe(1);
    await page.locator('.issue-counts', { hasText: 'Events' }).getByText('2', { exact: true }).waitFor();
    await screenshot(page, 'issue-merged-tab', 'issue-merged');

    const link = notice.getByRole('link');
    const shortId = await link.textContent();
    await link.click();
    await page
      .locator('.short-id', { hasText: shortId ?? '' })
      .first()
      .waitFor();
    const created = page.url().match(/\/issues\/(\d+)\/$/)?.[1] ?? '';
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${created}/`)).body).toMatchObject({ shortId, count: '2' });
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.locator('.timeline', { hasText: /unmerged 2 fingerprints from WEB-\d+/ }).waitFor();

    const narrow = await newPage(browser);
    await narrow.page.setViewportSize({ width: 390, height: 844 });
    await signIn(narrow.page, app);
    await narrow.page.goto(`${app.baseUrl}/organizations/acme/issues/${created}/merged/`);
    await narrow.page.locator('.merged-hashes > li').nth(1).waitFor();
    await narrow.page.locator('.merged-hashes > li').first().getByRole('checkbox').check();
    expect(await narrow.page.getByRole('button', { name: 'Unmerge', exact: true }).isDisabled()).toBe(false);
    expect(await narrow.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(narrow.page, 'issue-merged-tab-narrow');
    expect(narrow.errors).toEqual([]);
    await narrow.page.context().close();
  });
});
