import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const eventId = () => randomUUID().replace(/-/g, '');

/** A checkout error as a Node service reports it: breadcrumbs, tags, user, request, contexts, extra. */
function checkoutError(minutesAgo: number, release: string) {
  const timestamp = Date.now() / 1000 - minutesAgo * 60;
  return {
    event_id: eventId(),
    timestamp,
    platform: 'node',
    level: 'error',
    release,
    environment: 'production',
    server_name: 'web-1',
    tags: { feature: 'checkout', region: 'us-east' },
    user: { id: `u-${minutesAgo}`, email: `buyer${minutesAgo}@example.com`, ip_address: '10.1.2.3' },
    request: {
      method: 'POST',
      url: 'https://shop.example.com/checkout',
      query_string: 'step=pay',
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)', 'Content-Type': 'application/json' },
      cookies: 'session=abc; theme=dark',
      data: { cart: 'c-42', coupon: 'SPRING' },
    },
    contexts: { os: { name: 'Linux', version: '6.1' }, runtime: { name: 'node', version: 'v20.11.0' } },
    extra: { cartSize: 3, attempt: minutesAgo },
    breadcrumbs: {
      values: [
        { timestamp: timestamp - 4, type: 'http', category: 'http', level: 'info', data: { method: 'GET', url: '/api/cart', status_code: 200 } },
        { timestamp: timestamp - 2, category: 'ui.click', level: 'info', message: 'button#pay' },
        { timestamp: timestamp - 1, category: 'console', level: 'warning', message: 'Payment provider slow' },
      ],
    },
    exception: {
      values: [
        {
          type: 'TypeError',
          value: "Cannot read properties of undefined (reading 'amount')",
          mechanism: { type: 'onunhandledrejection', handled: false },
          stacktrace: {
            frames: [
              { filename: 'node:internal/process/task_queues', function: 'process.processTicksAndRejections', lineno: 95, colno: 5, in_app: false },
              { filename: 'node_modules/express/lib/router/layer.js', function: 'Layer.handle', lineno: 95, colno: 5, in_app: false },
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
}

const STAGING_ERROR = {
  event_id: eventId(),
  platform: 'node',
  level: 'fatal',
  environment: 'staging',
  release: 'shop@1.4.1',
  tags: { feature: 'catalog', region: 'eu-west' },
  exception: {
    values: [
      {
        type: 'RangeError',
        value: 'Maximum call stack size exceeded',
        stacktrace: { frames: [{ filename: '/srv/shop/src/tree.js', function: 'walk', lineno: 9, in_app: true }] },
      },
    ],
  },
};

const SLOW_PROVIDER = {
  event_id: eventId(),
  platform: 'node',
  level: 'warning',
  environment: 'production',
  release: 'shop@1.4.1',
  message: { formatted: 'Payment provider answered slowly (2.3 s)' },
  tags: { feature: 'checkout', region: 'us-east' },
};

/**
 * The two pages a Sentry user judges an error tracker by, in Chromium at desktop and phone widths:
 * the issue stream (search with suggestions kept in the URL, filters, bulk actions) and the issue
 * page (the event's parts, event navigation, resolve in the next release, comments).
 */
describe('issue stream and issue page (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const failures: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    const [key] = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body;
    for (const event of [checkoutError(30, 'shop@1.4.0'), checkoutError(20, 'shop@1.4.0'), checkoutError(10, 'shop@1.4.1'), STAGING_ERROR, SLOW_PROVIDER]) {
      const stored = await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, { token: null, body: event });
      expect(stored.status).toBe(200);
    }
    await app.app.get(EventProcessing).drain();
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
    // From here on every request must succeed and the console stay free of errors.
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    // A request the browser drops because the page navigated away was not refused.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
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

  const rows = () => page.locator('.issue-rows > li');
  const searchBox = () => page.getByRole('combobox', { name: 'Search issues' });
  const suggestion = (name: RegExp) => page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name });

  /** Nothing on the page is wider than the phone: no sideways scrolling of the content. */
  async function expectNoOverflow(width: number): Promise<void> {
    // Runs in the page (a string: the tests compile without the DOM's types). Boxes that scroll or
    // clip their content (tables, source lines, truncated titles) may hold wider children.
    const widest = await page.evaluate<number>(`(() => {
      const main = document.getElementById('main');
      const clipped = (element) => {
        for (let parent = element.parentElement; parent && parent !== main; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX !== 'visible') return true;
        }
        return false;
      };
      let right = main.scrollWidth;
      for (const element of main.querySelectorAll('*')) {
        const box = element.getBoundingClientRect();
        if (box.width > 0 && !clipped(element)) right = Math.max(right, box.right);
      }
      return right;
    })()`);
    expect(widest).toBeLessThanOrEqual(width);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  }

  it('searches with suggestions, keeps the search in the URL and filters by environment and sort', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/`);
    await rows().filter({ hasText: 'TypeError' }).waitFor();
    expect(await rows().count()).toBe(3);
    const typeError = rows().filter({ hasText: 'TypeError' });
    expect(await typeError.textContent()).toMatch(/WEB-\d+.*web/);
    expect(await typeError.locator('.issue-events').textContent()).toContain('3');
    expect(await typeError.locator('svg.sparkline').getAttribute('aria-label')).toBe('3 events in the last 24 hours');
    expect(await typeError.getAttribute('class')).toContain('level-error');
    expect(await rows().filter({ hasText: 'RangeError' }).getAttribute('class')).toContain('level-fatal');
    await screenshot(page, 'issues-stream', 'issues');

    // Keys, then values, come from the project's tags as the search is typed.
    await searchBox().fill('');
    await searchBox().pressSequentially('enviro');
    await suggestion(/environment:/).waitFor();
    await searchBox().press('ArrowDown');
    await searchBox().press('Enter');
    expect(await searchBox().inputValue()).toBe('environment:');
    await searchBox().pressSequentially('prod');
    await suggestion(/production/).waitFor();
    await searchBox().press('ArrowDown');
    await searchBox().press('Enter');
    expect(await searchBox().inputValue()).toBe('environment:production ');
    await searchBox().pressSequentially('region:us');
    await suggestion(/us-east/).waitFor();
    await searchBox().press('ArrowDown');
    await searchBox().press('Enter');
    await searchBox().press('Enter');
    await page.waitForURL(/query=environment%3Aproduction\+region%3Aus-east/);
    await rows().filter({ hasText: 'RangeError' }).waitFor({ state: 'detached' });
    expect(await rows().count()).toBe(2);

    // The URL is the search: a reload shows the same view.
    await page.reload();
    await rows().filter({ hasText: 'Payment provider' }).waitFor();
    expect(await rows().count()).toBe(2);
    expect(await searchBox().inputValue()).toBe('environment:production region:us-east');

    await page.getByLabel('Sort by').selectOption({ label: 'Events' });
    await page.waitForURL(/sort=freq/);
    await rows().first().filter({ hasText: 'TypeError' }).waitFor();

    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=is:unresolved&environment=staging`);
    await rows().filter({ hasText: 'RangeError' }).waitFor();
    expect(await rows().count()).toBe(1);
    expect(await page.getByLabel('Environment').inputValue()).toBe('staging');

    await page.getByLabel('Release').selectOption('shop@1.4.0');
    await page.waitForURL(/release%3Ashop%401\.4\.0/);
    await page.getByText('No issues match this search.').waitFor();
    expect(await page.getByRole('link', { name: /Client keys/ }).getAttribute('href')).toBe('/settings/acme/projects/web/keys/');
  });

  it('ignores and assigns issues in bulk', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=is:unresolved`);
    await rows().nth(2).waitFor();
    const slow = rows().filter({ hasText: 'Payment provider' });
    await slow.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Assign selected issues' }).click();
    await page.getByRole('menuitem', { name: 'Administrator' }).click();
    await slow.filter({ hasText: 'Administrator' }).waitFor();
    await slow.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Ignore selected issues' }).click();
    await page.getByRole('menuitem', { name: 'For 2 hours' }).click();
    await slow.waitFor({ state: 'detached' });
    const ignored = (await app.request('GET', '/api/0/organizations/acme/issues/?query=is:ignored')).body;
    expect(ignored).toEqual([
      expect.objectContaining({ title: 'Payment provider answered slowly (2.3 s)', status: 'ignored', statusDetails: { ignoreUntil: expect.any(String) } }),
    ]);
    const ignoredFor = Date.parse(ignored[0].statusDetails.ignoreUntil) - Date.now();
    expect(ignoredFor).toBeGreaterThan(115 * 60_000);
    expect(ignoredFor).toBeLessThanOrEqual(120 * 60_000);
    expect(ignored[0].assignedTo).toMatchObject({ type: 'user', email: 'admin@acme.test' });

    await page.getByRole('link', { name: 'Ignored' }).click();
    await page.waitForURL(/query=is%3Aignored/);
    await page.getByRole('link', { name: /Payment provider answered slowly/ }).click();
    await page.getByRole('region', { name: 'Message' }).waitFor();
    expect(await page.getByRole('region', { name: 'Message' }).textContent()).toContain('Payment provider answered slowly (2.3 s)');
    expect(await page.locator('.event-details').textContent()).not.toContain('**');
  });

  it('shows the event: breadcrumbs, request, user, contexts, extra and folded library frames', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=TypeError`);
    await page.getByRole('link', { name: /TypeError/ }).click();
    await page.getByRole('heading', { name: /TypeError/, level: 1 }).waitFor();

    const section = (name: string) => page.getByRole('region', { name, exact: true });
    await section('Exception').waitFor();
    expect(await section('Exception').locator('.source .current').first().textContent()).toContain('const total = cart.amount * 100;');
    await screenshot(page, 'issue-page', 'issue');
    const fold = section('Exception').getByRole('button', { name: 'Show 2 library frames' });
    await fold.click();
    await section('Exception').getByText('Layer.handle').waitFor();

    const crumbs = await section('Breadcrumbs').locator('tbody tr').allTextContents();
    expect(crumbs).toHaveLength(3);
    expect(crumbs[0]).toMatch(/http.*info.*GET.*\/api\/cart.*200/);
    expect(crumbs[1]).toMatch(/ui\.click.*button#pay/);
    expect(crumbs[2]).toMatch(/console.*warning.*Payment provider slow/);

    const request = (await section('Request').textContent())!;
    for (const text of ['POST', 'https://shop.example.com/checkout', 'step', 'pay', 'SPRING', 'theme', 'dark', 'User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)'])
      expect(request).toContain(text);
    expect(await section('User').textContent()).toContain('buyer10@example.com');
    expect(await page.getByRole('region', { name: 'Operating System', exact: true }).textContent()).toMatch(/Linux.*6\.1/);
    expect(await page.getByRole('region', { name: 'Runtime' }).textContent()).toContain('v20.11.0');
    expect(await section('Additional data').textContent()).toMatch(/cartSize\s*3/);

    // The sidebar's tags are the distribution over all its events, not the latest event's values.
    const release = page.locator('.distributions > li', { hasText: 'Release' });
    expect(await release.locator('summary').textContent()).toMatch(/shop@1\.4\.0\s*67%/);
    await release.locator('summary').click();
    expect(await release.locator('.distribution-values').textContent()).toMatch(/shop@1\.4\.1\s*33%/);
  });

  it('steps through the events and lists them all', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=TypeError`);
    await page.getByRole('link', { name: /TypeError/ }).click();
    const user = () => page.getByRole('region', { name: 'User', exact: true });
    await user().getByText('buyer10@example.com').waitFor();
    expect(await page.getByRole('button', { name: 'Newer event' }).isDisabled()).toBe(true);

    await page.getByRole('link', { name: 'Older event' }).click();
    await user().getByText('buyer20@example.com').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/\/issues\/\d+\/events\/[0-9a-f]{32}\/$/);
    await page.getByRole('link', { name: 'Oldest event' }).click();
    await user().getByText('buyer30@example.com').waitFor();
    expect(await page.getByRole('button', { name: 'Older event' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Newer event' }).click();
    await user().getByText('buyer20@example.com').waitFor();
    await page.getByRole('link', { name: 'Latest event' }).click();
    await user().getByText('buyer10@example.com').waitFor();

    await page.getByRole('link', { name: 'All events' }).click();
    const events = page.locator('table.event-list tbody tr');
    await events.nth(2).waitFor();
    expect(await events.count()).toBe(3);
    expect(await events.first().textContent()).toMatch(/production.*shop@1\.4\.1.*buyer10@example\.com/);
    await events.nth(2).getByRole('link').click();
    await user().getByText('buyer30@example.com').waitFor();
  });

  it('resolves in the next release from the keyboard-operated menu, and comments', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=TypeError`);
    await page.getByRole('link', { name: /TypeError/ }).click();
    const issueId = new URL(page.url()).pathname.split('/')[4];
    const options = page.getByRole('button', { name: 'More resolve options' });
    await options.focus();
    await options.press('ArrowDown');
    const menu = page.getByRole('menu', { name: 'More resolve options' });
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.slice(0, 3)).toEqual(['Resolve', 'In the next release', 'In the current release']);
    expect(items.slice(3).sort()).toEqual(['shop@1.4.0', 'shop@1.4.1']);
    await page.locator(':focus', { hasText: 'Resolve' }).waitFor();
    expect(await page.locator(':focus').getAttribute('role')).toBe('menuitem');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('Resolved in the next release').waitFor();
    const issue = (await app.request('GET', `/api/0/organizations/acme/issues/${issueId}/`)).body;
    expect(issue).toMatchObject({ status: 'resolved', statusDetails: { inNextRelease: true } });

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Comment', { exact: true }).fill('Checked the cart service.\nThe amount is missing for gift cards.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const note = page.locator('.timeline .note');
    await note.waitFor();
    expect(await note.innerText()).toBe('Checked the cart service.\nThe amount is missing for gift cards.');
    expect(await page.locator('.timeline').textContent()).toContain('marked this issue as resolved in the upcoming release');

    await page.getByRole('button', { name: 'Edit comment' }).click();
    await page.getByLabel('Edit comment').fill('Fixed by the gift card patch.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.timeline .note', { hasText: 'Fixed by the gift card patch.' }).waitFor();
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${issueId}/comments/`)).body).toEqual([
      expect.objectContaining({ data: { text: 'Fixed by the gift card patch.' } }),
    ]);

    await page.getByRole('button', { name: 'Delete comment' }).click();
    await note.waitFor({ state: 'detached' });
    expect((await app.request('GET', `/api/0/organizations/acme/issues/${issueId}/comments/`)).body).toEqual([]);
    await page.getByRole('button', { name: 'Unresolve' }).click();
    await page.getByRole('button', { name: 'More resolve options' }).waitFor();
  });

  it('fits a 390 px phone: the stream, the issue and its activity', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.baseUrl}/organizations/acme/issues/?query=`);
    await rows().nth(2).waitFor();
    await expectNoOverflow(390);
    await screenshot(page, 'issues-stream-mobile', 'issues-mobile');

    await page.getByRole('link', { name: /TypeError/ }).click();
    await page.getByRole('region', { name: 'Breadcrumbs' }).waitFor();
    await screenshot(page, 'issue-page-mobile', 'issue-mobile');
    await page.getByRole('region', { name: 'Exception' }).getByRole('button', { name: 'Show 2 library frames' }).click();
    await expectNoOverflow(390);

    await page.getByRole('button', { name: 'Ignore', exact: true }).click();
    await page.getByRole('menu', { name: 'Ignore' }).waitFor();
    await page.locator(':focus[role="menuitem"]').waitFor();
    await expectNoOverflow(390);
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Ignore' }).waitFor({ state: 'detached' });
    expect(await page.locator(':focus').getAttribute('aria-label')).toBe('Ignore');

    await page.getByRole('link', { name: 'All events' }).click();
    await page.locator('table.event-list tbody tr').nth(2).waitFor();
    await expectNoOverflow(390);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Comment', { exact: true }).waitFor();
    await expectNoOverflow(390);
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
