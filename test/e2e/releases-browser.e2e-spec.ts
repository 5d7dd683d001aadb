import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'releases');
const RELEASE = 'shop-web@3.1.0';

/** The browser variant: @sentry/browser in Chromium, a minified bundle served over HTTP, its maps uploaded by sentry-cli. */
describe('source maps for @sentry/browser in Chromium', () => {
  let api: TestApp;
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  let work: string;

  beforeAll(async () => {
    api = await startTestApp();
    browser = await launchBrowser();
    work = mkdtempSync(join(tmpdir(), 'faultline-browser-releases-'));
    for (const file of ['checkout.js', 'browser-app.js']) copyFileSync(join(FIXTURES, file), join(work, file));
    await build({
      entryPoints: [join(work, 'browser-app.js')],
      outfile: join(work, 'static', 'app.min.js'),
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      platform: 'browser',
      nodePaths: [join(ROOT, 'node_modules')],
      logLevel: 'silent',
    });
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      SENTRY_URL: api.baseUrl,
      SENTRY_AUTH_TOKEN: BOOTSTRAP.token,
      SENTRY_ORG: BOOTSTRAP.org,
      SENTRY_PROJECT: BOOTSTRAP.project,
    };
    const cli = join(ROOT, 'node_modules', '.bin', 'sentry-cli');
    await run(cli, ['sourcemaps', 'inject', 'static'], { cwd: work, env });
    await run(cli, ['sourcemaps', 'upload', '--release', RELEASE, '--url-prefix', '~/static', 'static'], { cwd: work, env });

    const dsn = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0].dsn.public;
    const page = `<!doctype html><title>Shop</title><button id="pay">Pay</button><script>window.SENTRY_DSN=${JSON.stringify(dsn)};window.SENTRY_RELEASE=${JSON.stringify(RELEASE)}</script><script src="/static/app.min.js"></script>`;
    site = createServer((request, response) => {
      if (request.url === '/static/app.min.js')
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(work, 'static', 'app.min.js')));
      else response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await api?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows the error thrown in the minified bundle at its original file, line, function and source line', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${siteUrl}/`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.locator('body[data-reported="yes"]').waitFor();
    expect(errors).toEqual([]);
    await api.app.get(EventProcessing).drain();

    const issue = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=Card')).body[0];
    const event = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`)).body;
    const exception = event.entries.find((entry: { type: string }) => entry.type === 'exception').data.values[0];
    const source = readFileSync(join(FIXTURES, 'checkout.js'), 'utf8').split('\n');
    expect(exception.stacktrace.frames.at(-1)).toMatchObject({
      filename: expect.stringMatching(/checkout\.js$/),
      lineNo: 4,
      function: 'chargeCard',
      context: expect.arrayContaining([[4, source[3]]]),
    });
    expect(exception.rawStacktrace.frames.at(-1).filename).toBe(`${siteUrl}/static/app.min.js`);
    expect(event.errors).toEqual([]);

    // The issue page shows the same: the original frame and its source line, the minified one a click away.
    const reader = await newPage(browser);
    await signIn(reader.page, api);
    await reader.page.goto(`${api.baseUrl}/organizations/acme/issues/${issue.id}/`);
    const exceptionSection = reader.page.getByRole('region', { name: 'Exception' });
    const topFrame = exceptionSection.locator('.frame').first();
    await expect(topFrame.locator('.frame-function').textContent()).resolves.toBe('chargeCard');
    await expect(topFrame.locator('.frame-file').textContent()).resolves.toMatch(/checkout\.js$/);
    await expect(exceptionSection.textContent()).resolves.toContain(source[3].trim());
    await exceptionSection.getByRole('button', { name: 'Minified' }).click();
    await expect(exceptionSection.locator('.frame').first().locator('.frame-file').textContent()).resolves.toMatch(/app\.min\.js$/);
    expect(reader.errors).toEqual([]);
  });
});
