import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BOOTSTRAP, type TestApp } from './test-app';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'screenshots');

/**
 * Starts headless Chromium. Without it the browser tests fail (they never pass silently), saying
 * how to install it; CI (.ci/run) installs it when missing.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}. Install it with \`apt-get install -y chromium\` ` +
        '(Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--disable-gpu', '--disable-dev-shm-usage'] });
}

/** A page of a fresh browser context (its own cookies) that fails the test on a script error. */
export async function newPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  page.setDefaultTimeout(15_000);
  return { page, errors };
}

export const DOCS_SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');

/**
 * Saves a full-page screenshot as a test artifact (test-artifacts/screenshots/, git-ignored). With
 * `docsName`, and UPDATE_DOCS_SCREENSHOTS=1 set, it also refreshes the docs' picture in
 * docs/screenshots/ (the visible viewport only, to keep the committed PNG small).
 */
export async function screenshot(page: Page, name: string, docsName?: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  if (docsName && process.env.UPDATE_DOCS_SCREENSHOTS === '1') await page.screenshot({ path: join(DOCS_SCREENSHOTS, `${docsName}.png`) });
}

/** Signs in through the form, with the keyboard only, as the bootstrap administrator; lands on the issues page. */
export async function signIn(page: Page, app: TestApp): Promise<void> {
  await page.goto(`${app.baseUrl}/auth/login/`);
  await page.getByLabel('E-mail address').waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.type(BOOTSTRAP.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(BOOTSTRAP.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
}

/**
 * Records layout shifts from now on (Chromium's Layout Instability API); `cumulativeLayoutShift`
 * then answers their sum, the page's CLS.
 */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = globalThis as unknown as { layoutShift: number };
    state.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) state.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift' as never, buffered: true });
  });
}

export async function cumulativeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { layoutShift: number }).layoutShift);
}
