import { createHash, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { zipFile } from '../support/zip';

/**
 * The releases pages in a real browser: what sentry-cli created, with its deploy, the version search
 * and the project filter, crash-free rates, and a release's own page (its new and regressed issues,
 * commits, deploys, files and health); and the top bar, which stays one line at 1280 px.
 */
describe('web interface: releases', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let app: TestApp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    ({ page, errors } = await newPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the releases with their last deploy, and finds one by version', async () => {
    await app.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'shop@1.0.0', projects: ['web'] } });
    await app.request('POST', '/api/0/organizations/acme/releases/', {
      body: { version: 'shop@2.0.0', projects: ['web'], dateReleased: '2026-01-02T03:04:05Z' },
    });
    await app.request('POST', '/api/0/organizations/acme/releases/shop@2.0.0/deploys/', { body: { environment: 'production' } });
    const mobile = await app.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile' } });
    await app.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'app@3.0.0', projects: ['mobile'] } });
    await signIn(page, app);
    await page.goto(`${app.baseUrl}/organizations/acme/releases/`);
    const rows = page.getByRole('region', { name: 'Releases' }).getByRole('row');
    await rows.filter({ hasText: '2.0.0' }).filter({ hasText: 'production' }).waitFor();
    expect(await rows.count()).toBe(4);
    await page.getByLabel('Project').selectOption({ label: 'mobile' });
    await rows.filter({ hasText: '2.0.0' }).waitFor({ state: 'detached' });
    expect(await rows.filter({ hasText: '3.0.0' }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('project')).toBe(String(mobile.body.id));
    await page.getByLabel('Project').selectOption({ label: 'All projects' });
    await page.getByRole('searchbox', { name: 'Search versions' }).fill('1.0');
    await page.getByRole('searchbox', { name: 'Search versions' }).press('Enter');
    await rows.filter({ hasText: '2.0.0' }).waitFor({ state: 'detached' });
    expect(await rows.filter({ hasText: '1.0.0' }).count()).toBe(1);
    expect(await rows.filter({ hasText: '3.0.0' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('query')).toBe('1.0');
    // The search box is the issue stream's: a bordered field as tall as its button, not the browser's default.
    const box = await page.getByRole('searchbox', { name: 'Search versions' }).boundingBox();
    const button = await page.getByRole('search').getByRole('button', { name: 'Search' }).boundingBox();
    expect(box!.height).toBe(button!.height);
    expect(box!.width).toBeGreaterThan(600);
    expect(errors).toEqual([]);
  });

  it("shows a release's crash-free rates once it has sessions", async () => {
    const key = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
    const started = new Date(Date.now() - 60_000).toISOString();
    const session = (did: string, status: string) => ({
      sid: randomUUID(),
      did,
      init: true,
      status,
      errors: status === 'crashed' ? 1 : 0,
      started,
      attrs: { release: 'shop@2.0.0' },
    });
    const items = [session('u-1', 'exited'), session('u-2', 'exited'), session('u-3', 'exited'), session('u-4', 'crashed')];
    const body = [JSON.stringify({}), ...items.flatMap((item) => [JSON.stringify({ type: 'session' }), JSON.stringify(item)])].join('\n');
    const sent = await fetch(`${app.baseUrl}/api/${key.projectId}/envelope/?sentry_key=${key.public}`, { method: 'POST', body });
    expect(sent.status).toBe(200);
    await page.goto(`${app.baseUrl}/organizations/acme/releases/`);
    const table = page.getByRole('region', { name: 'Releases' });
    await table.getByRole('columnheader', { name: 'Crash-free sessions' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: '2.0.0' });
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['75%', '75%']));
    expect(await table.getByRole('row').filter({ hasText: '1.0.0' }).getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['—', '—']));
    expect(errors).toEqual([]);
  });

  it('opens a release from the list: its new and regressed issues, commits, deploys, files and health', async () => {
    const key = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
    const send = async (event: Record<string, unknown>) => {
      const stored = await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, { token: null, body: event });
      expect(stored.status).toBe(200);
      await app.app.get(EventProcessing).drain();
    };
    const error = (type: string, release: string, extra: Record<string, unknown> = {}) => ({
      event_id: randomUUID().replace(/-/g, ''),
      platform: 'node',
      level: 'error',
      release,
      fingerprint: [type],
      exception: { values: [{ type, value: `${type} happened`, stacktrace: { frames: [{ filename: 'app.js', function: 'run', lineno: 1, in_app: true }] } }] },
      ...extra,
    });
    // An issue first seen in 1.0.0, resolved, and seen again in 2.0.0: a regression, not a new issue.
    await send(error('CartError', 'shop@1.0.0'));
    const [cart] = (await app.request('GET', '/api/0/organizations/acme/issues/?query=CartError')).body;
    expect((await app.request('PUT', `/api/0/organizations/acme/issues/${cart.id}/`, { body: { status: 'resolved' } })).status).toBe(200);
    await send(error('CartError', 'shop@2.0.0'));
    await send(
      error('PaymentError', 'shop@2.0.0', {
        contexts: { device: { model: 'Pixel 8', storage_size: 25_232_932_864 }, cloud_resource: { 'cloud.provider': null } },
      }),
    );
    await app.request('PUT', '/api/0/organizations/acme/releases/shop@2.0.0/', {
      body: {
        commits: [
          {
            id: 'a1b2c3d4e5f6a7b8c9d0',
            repository: 'acme/shop',
            message: 'Fix the payment retry\n\nLonger body',
            author_name: 'Ada',
            author_email: 'ada@acme.test',
          },
        ],
      },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1536, 'x')]), 'app.min.js');
    form.append('name', '~/static/app.min.js');
    form.append('header', 'Sourcemap: app.min.js.map');
    const uploaded = await fetch(`${app.baseUrl}/api/0/organizations/acme/releases/shop@2.0.0/files/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOOTSTRAP.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    // An artifact bundle as sentry-cli uploads it: chunks, then the assembly, its id in the manifest.
    const bundle = zipFile([
      {
        name: 'manifest.json',
        content: JSON.stringify({
          debug_id: '5B2A4C1E-0D3F-4E5A-9B8C-7D6E5F4A3B2C',
          files: {
            'files/_/_/app.min.js': { url: '~/app.min.js', type: 'minified_source' },
            'files/_/_/app.min.js.map': { url: '~/app.min.js.map', type: 'source_map' },
          },
        }),
      },
      { name: 'files/_/_/app.min.js', content: 'function a(){throw new Error("x")}a();' },
      { name: 'files/_/_/app.min.js.map', content: JSON.stringify({ version: 3, sources: ['app.js'], names: [], mappings: 'AAAA' }) },
    ]);
    const checksum = createHash('sha1').update(bundle).digest('hex');
    const chunk = new FormData();
    chunk.append('file', new Blob([bundle]), checksum);
    const chunked = await fetch(`${app.baseUrl}/api/0/organizations/acme/chunk-upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOOTSTRAP.token}` },
      body: chunk,
    });
    expect(chunked.status).toBe(200);
    const assembled = await app.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
      body: { checksum, chunks: [checksum], projects: ['web'], version: 'shop@2.0.0', dist: 'web-1' },
    });
    expect(assembled.body).toMatchObject({ state: 'ok' });
    const listed = await app.request('GET', '/api/0/projects/acme/web/artifact-bundles/?query=shop@2.0');
    expect(listed.body).toEqual([
      {
        bundleId: '5b2a4c1e-0d3f-4e5a-9b8c-7d6e5f4a3b2c',
        release: 'shop@2.0.0',
        dist: 'web-1',
        associations: [{ release: 'shop@2.0.0', dist: 'web-1' }],
        fileCount: 2,
        size: expect.any(Number),
        date: expect.any(String),
        dateModified: expect.any(String),
      },
    ]);
    expect((await app.request('GET', '/api/0/projects/acme/web/artifact-bundles/?release=shop@2.0')).body).toEqual([]);

    await page.goto(`${app.baseUrl}/organizations/acme/releases/`);
    await page.getByRole('link', { name: 'Release shop@2.0.0' }).click();
    await page.getByRole('heading', { name: '2.0.0', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/organizations/acme/releases/shop%402.0.0/');
    const region = (name: string) => page.getByRole('region', { name });
    await region('New issues')
      .getByRole('link', { name: /PaymentError/ })
      .waitFor();
    expect(await region('New issues').getByText('CartError').count()).toBe(0);
    await region('Regressed issues')
      .getByRole('link', { name: /CartError/ })
      .waitFor();
    expect(await region('Regressed issues').getByText('PaymentError').count()).toBe(0);
    await region('Commits').getByRole('cell', { name: 'Fix the payment retry' }).waitFor();
    expect(await region('Commits').getByRole('row').filter({ hasText: 'a1b2c3d4e5f6' }).getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Ada', 'acme/shop']),
    );
    await region('Deploys').getByRole('cell', { name: 'production' }).waitFor();
    const file = region('Files').getByRole('row').filter({ hasText: '~/static/app.min.js' });
    expect(await file.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['app.min.js.map', '1.5 KiB']));
    const bundleRow = region('Artifact bundles').getByRole('row').filter({ hasText: '5b2a4c1e-0d3f-4e5a-9b8c-7d6e5f4a3b2c' });
    expect(await bundleRow.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['web-1', '2', `${listed.body[0].size} B`]));
    const health = region('Health');
    await health.getByText('Crash-free sessions').waitFor();
    expect(await health.locator('dd').allTextContents()).toEqual(['75%', '75%', '4', '1', '0', '4']);
    await screenshot(page, 'release-page', 'release');

    // Each issue is a link to its page; the regressed one says so.
    await region('Regressed issues')
      .getByRole('link', { name: /CartError/ })
      .click();
    await page.getByRole('heading', { name: /CartError/, level: 1 }).waitFor();
    expect(await page.locator('.issue-header .status').textContent()).toBe('Regressed');

    // The new issue's event: byte counts read as sizes, and an empty context gets no card.
    await page.goBack();
    await region('New issues')
      .getByRole('link', { name: /PaymentError/ })
      .click();
    const device = page.getByRole('region', { name: 'Device' });
    await device.getByText('23.5 GiB').waitFor();
    expect(await page.getByRole('region', { name: 'Cloud Resource' }).count()).toBe(0);
    expect(await page.getByText('None.').count()).toBe(0);

    // A version that is not there says so, once.
    await page.goto(`${app.baseUrl}/organizations/acme/releases/shop@9.9.9/`);
    await page.getByRole('alert').filter({ hasText: 'does not exist' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Commits' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps the top bar on one line at 1280 px, with the settings behind one menu, and folds it at 390 px', async () => {
    for (const path of ['/organizations/acme/issues/', '/organizations/acme/releases/', '/settings/acme/members/', '/settings/account/security/']) {
      await page.goto(`${app.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const bar = await page.locator('header.topbar').boundingBox();
      const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
      const brand = await page.locator('header.topbar .brand').boundingBox();
      const links = await page
        .getByRole('navigation', { name: 'Main' })
        .locator(':scope > ul > li')
        .evaluateAll((items) => items.map((item) => (item as unknown as { getBoundingClientRect(): { top: number; height: number } }).getBoundingClientRect()));
      // One line: the bar no taller than one row, every item and Sign out on the brand's line, Sign out unbroken.
      expect(bar!.height).toBeLessThan(60);
      expect(signOut!.height).toBeLessThan(30);
      for (const box of [...links, { top: signOut!.y, height: signOut!.height }])
        expect(Math.abs(box.top + box.height / 2 - (brand!.y + brand!.height / 2))).toBeLessThan(8);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    }
    const main = page.getByRole('navigation', { name: 'Main' });
    const settings = main.getByRole('button', { name: 'Settings', exact: true });
    expect(await main.getByRole('link', { name: 'Members' }).isVisible()).toBe(false);
    await settings.click();
    expect(await settings.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await settings.getAttribute('aria-expanded')).toBe('false');
    await settings.click();
    await main.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(await main.getByRole('link', { name: 'Members' }).isVisible()).toBe(false);

    const narrow = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 390, height: 800 } });
    const phone = await narrow.newPage();
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${app.baseUrl}/organizations/acme/releases/shop@2.0.0/`);
    await phone.getByRole('heading', { name: '2.0.0', level: 1 }).waitFor();
    // The artifact bundles' table (long ids) stays inside its box too.
    await phone.getByRole('region', { name: 'Artifact bundles' }).getByRole('cell', { name: 'web-1' }).waitFor();
    expect((await phone.locator('header.topbar').boundingBox())!.height).toBeLessThan(60);
    await phone.getByRole('button', { name: 'Menu' }).click();
    const phoneMain = phone.getByRole('navigation', { name: 'Main' });
    // Folded: one column, the settings listed in it, nothing wider than the phone.
    const releases = await phoneMain.getByRole('link', { name: 'Releases' }).boundingBox();
    const members = await phoneMain.getByRole('link', { name: 'Members' }).boundingBox();
    expect(members!.x).toBe(releases!.x);
    expect(members!.y).toBeGreaterThan(releases!.y);
    expect(await phone.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'release-page-phone-menu');
    await narrow.close();
    expect(errors).toEqual([]);
  });
});
