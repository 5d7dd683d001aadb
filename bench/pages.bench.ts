import 'reflect-metadata';
import { chromium, type Page } from 'playwright-core';
import { Database, loadConfig } from '@faultline/platform';
import { EventProcessing } from '@faultline/ingest';
import { createApp } from '../apps/api/src/create-app';
import { environment, percentile, recreateDatabase, round, saveResults } from './bench-support';
import { event } from './ingest.bench';

/**
 * The web pages a person opens all day, in Chromium, over a project holding BENCH_EVENTS events
 * sent through the SDK endpoint (BENCH_ISSUES issues, five releases, spread over a week): each
 * page's time from navigation until its heading shows, no skeleton is left and no request of its
 * own is in flight (median and worst of BENCH_LOADS loads, after one warm-up load).
 *
 * Usage: npm run -s build && node dist/bench/pages.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_pages on), BENCH_EVENTS (100000),
 *      BENCH_ISSUES (500), BENCH_LOADS (10), CHROMIUM_PATH (/usr/bin/chromium), BENCH_RESULTS_DIR.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ISSUES = Number(process.env.BENCH_ISSUES ?? 500);
const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const SENDERS = 16;
const PORT = 9305;
const DATABASE = 'faultline_bench_pages';
const USER = { email: 'bench@example.com', password: 'bench-password-1' };
const RELEASES = ['shop@4.8.0', 'shop@4.9.0', 'shop@4.10.0', 'shop@4.11.0', 'shop@4.12.0'];
const WEEK_SECONDS = 7 * 24 * 3600;

async function send(baseUrl: string, projectId: string, publicKey: string): Promise<number> {
  const started = performance.now();
  const now = Date.now() / 1000;
  let next = 0;
  const sender = async () => {
    for (let index = next++; index < EVENTS; index = next++) {
      const body = {
        ...event(index),
        // Newest events last, as they arrive, spread evenly over the week before now.
        timestamp: now - WEEK_SECONDS + (index / EVENTS) * WEEK_SECONDS,
        release: RELEASES[Math.floor((index / EVENTS) * RELEASES.length)],
        fingerprint: [`bench-${index % ISSUES}`],
      };
      const response = await fetch(`${baseUrl}/api/${projectId}/store/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${publicKey}` },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`event ${index}: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return performance.now() - started;
}

/** Navigates and answers the milliseconds until the page has settled (see the file's comment). */
async function load(page: Page, url: string): Promise<number> {
  let inFlight = 0;
  const started = performance.now();
  const onRequest = () => inFlight++;
  const onDone = () => inFlight--;
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => {
        const { document } = globalThis as unknown as { document: { querySelector(selector: string): unknown } };
        return document.querySelector('h1') && !document.querySelector('[aria-busy="true"]');
      },
      undefined,
      { polling: 'raf' },
    );
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    return performance.now() - started;
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

async function main(): Promise<void> {
  const databaseUrl = await recreateDatabase(DATABASE);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'all',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: 'bench-token',
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
    BOOTSTRAP_EMAIL: USER.email,
    BOOTSTRAP_PASSWORD: USER.password,
  });
  const app = await createApp(config);
  await app.listen(config.port, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${PORT}`;
  const database = app.get(Database);
  const [key] = await database.query<{ project_id: string; public_key: string }>(
    `SELECT k.project_id::text AS project_id, k.public_key FROM projects.project_keys k JOIN projects.projects p ON p.id = k.project_id WHERE p.slug = 'web'`,
  );

  // A hundred thousand events in a minute is a spike to the organization's first hour: protection off.
  const spike = await fetch(`${baseUrl}/api/0/organizations/acme/rate-limits/`, {
    method: 'PUT',
    headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' },
    body: JSON.stringify({ spikeProtection: false }),
  });
  if (spike.status !== 200) throw new Error(`spike protection: ${spike.status} ${await spike.text()}`);
  const sendMs = await send(baseUrl, key.project_id, key.public_key);
  const drainStarted = performance.now();
  await app.get(EventProcessing).drain();
  const drainMs = performance.now() - drainStarted;
  await database.execute('VACUUM ANALYZE');
  const [stored] = await database.query<{ events: number; issues: number }>(
    `SELECT (SELECT count(*)::int FROM issues.error_events) AS events, (SELECT count(*)::int FROM issues.issues) AS issues`,
  );
  const [issue] = await database.query<{ id: string }>(`SELECT id::text AS id FROM issues.issues ORDER BY times_seen DESC LIMIT 1`);

  const pages: Array<[string, string]> = [
    ['issue stream', '/organizations/acme/issues/'],
    ['issue stream, 3 search terms', `/organizations/acme/issues/?query=${encodeURIComponent('is:unresolved region:eu release:shop@4.12.0')}`],
    ['issue page', `/organizations/acme/issues/${issue.id}/`],
    ['issue events', `/organizations/acme/issues/${issue.id}/events/`],
    ['project', '/organizations/acme/projects/web/'],
    ['releases', '/organizations/acme/releases/'],
    ['release page', '/organizations/acme/releases/shop@4.12.0/'],
    ['alerts', '/organizations/acme/alerts/rules/'],
    ['project settings', '/settings/acme/projects/web/'],
    ['members', '/settings/acme/members/'],
    ['usage stats', '/organizations/acme/stats/'],
  ];

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${baseUrl}/auth/login/`);
  await page.getByLabel('E-mail address').fill(USER.email);
  await page.getByLabel('Password').fill(USER.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
  const failed: string[] = [];
  page.on('pageerror', (error) => failed.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });

  const results: Array<{ page: string; path: string; medianMs: number; worstMs: number }> = [];
  for (const [name, path] of pages) {
    await load(page, `${baseUrl}${path}`);
    const times: number[] = [];
    for (let n = 0; n < LOADS; n++) times.push(await load(page, `${baseUrl}${path}`));
    results.push({ page: name, path, medianMs: round(percentile(times, 50)), worstMs: round(Math.max(...times)) });
  }
  await browser.close();

  const summary = {
    environment: await environment(databaseUrl),
    data: { ...stored, sentPerSecond: round(EVENTS / (sendMs / 1000)), drainedAfterMs: round(drainMs) },
    loads: LOADS,
    pages: results,
    failed,
  };
  console.table(results);
  console.log(JSON.stringify(summary.data), failed.length ? `failed: ${failed.join('; ')}` : 'no page errors or failed requests');
  saveResults('pages.json', summary);
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
