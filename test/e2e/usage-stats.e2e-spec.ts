import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launchBrowser, newPage, signIn } from '../support/browser';
import { eventsProcessed } from '../support/events-processed';
import { startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);

interface Group {
  by: Record<string, string | number | null>;
  totals: Record<string, number>;
  series?: Record<string, number[]>;
}

/** Usage stats (stats_v2) of what the real @sentry/node SDK sends: every item counted by outcome, category and reason. */
describe('usage stats from the @sentry/node SDK', () => {
  let api: TestApp;
  let web: { id: string; dsn: string };

  beforeAll(async () => {
    api = await startTestApp();
    const [key] = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body;
    web = { id: String(key.projectId), dsn: key.dsn.public };
  });

  afterAll(async () => {
    await api?.close();
  });

  const sendWithSdk = (dsn: string, scenario: string) =>
    run(process.execPath, [join(__dirname, '..', 'support', 'usage-client.cjs'), dsn, scenario], { timeout: 30_000 });
  const usage = async (query: string): Promise<{ start: string; end: string; intervals?: string[]; groups: Group[] }> => {
    const answer = await api.request('GET', `/api/0/organizations/acme/stats_v2/?field=sum(quantity)&statsPeriod=1d&${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** `outcome/category/reason` → total, of groups by those three. */
  const totals = (groups: Group[]) =>
    Object.fromEntries(groups.map((group) => [`${group.by.outcome}/${group.by.category}/${group.by.reason}`, group.totals['sum(quantity)']]));
  const legacy = async (project: string, stat: string) => {
    const until = Math.ceil(Date.now() / 1000) + 3600;
    const points = (await api.request('GET', `/api/0/projects/acme/${project}/stats/?stat=${stat}&since=${until - 86400}&until=${until}&resolution=1h`)).body;
    return (points as Array<[number, number]>).reduce((sum, [, count]) => sum + count, 0);
  };

  it('counts errors, a transaction, a session, a filtered error and client discards, and project stats count the errors only', async () => {
    const filter = await api.request('PUT', '/api/0/projects/acme/web/filters/error-messages/', { body: { value: ['*Ignored by the inbound filter*'] } });
    expect(filter.status).toBe(204);
    await sendWithSdk(web.dsn, 'usage');
    await eventsProcessed(api);

    const answer = await usage('groupBy=outcome&groupBy=category&groupBy=reason&interval=1h');
    const counted = totals(answer.groups);
    expect(counted).toMatchObject({
      'accepted/error/null': 2,
      'filtered/error/error-message': 1,
      'filtered/transaction/unsupported_item': 1,
      'client_discard/error/before_send': 2,
    });
    expect(counted['accepted/session/null']).toBe(1);
    expect(Object.keys(counted).every((key) => /^(accepted|filtered|client_discard)\//.test(key))).toBe(true);
    // Every interval of the day, each group's series adding up to its total.
    expect(answer.intervals).toHaveLength(25);
    for (const group of answer.groups) expect(group.series?.['sum(quantity)'].reduce((sum, n) => sum + n, 0)).toBe(group.totals['sum(quantity)']);

    expect(await legacy('web', 'received')).toBe(3);
    expect(await legacy('web', 'generated')).toBe(2);
    expect(await legacy('web', 'blacklisted')).toBe(1);
  });

  it("counts a burst over a key's rate limit as rate_limited (key_quota), the SDK's backoff as client discards", async () => {
    const created = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Burst', slug: 'burst' } });
    const [key] = (await api.request('GET', '/api/0/projects/acme/burst/keys/')).body;
    expect((await api.request('PUT', `/api/0/projects/acme/burst/keys/${key.id}/`, { body: { rateLimit: { count: 2, window: 3600 } } })).status).toBe(200);
    await sendWithSdk(key.dsn.public, 'burst');
    await eventsProcessed(api);

    const burst = totals((await usage(`project=${created.body.id}&category=error&groupBy=outcome&groupBy=reason`)).groups);
    const rateLimited = burst['rate_limited/undefined/key_quota'] ?? 0;
    const backedOff = burst['client_discard/undefined/ratelimit_backoff'] ?? 0;
    expect(burst['accepted/undefined/null']).toBe(2);
    expect(rateLimited).toBeGreaterThanOrEqual(1);
    // Five sent: each accepted, refused by the key's limit, or held back by the SDK once it heard 429.
    expect(2 + rateLimited + backedOff).toBe(5);
    expect(await legacy('burst', 'rejected')).toBe(rateLimited);
    expect(await legacy('burst', 'received')).toBe(2 + rateLimited);

    // By project: totals only, as Sentry answers; the web project's counts are apart.
    const byProject = await usage('category=error&outcome=accepted&groupBy=project');
    expect(byProject.intervals).toBeUndefined();
    expect(Object.fromEntries(byProject.groups.map((group) => [group.by.project, group.totals['sum(quantity)']]))).toEqual({
      [Number(web.id)]: 2,
      [Number(created.body.id)]: 2,
    });
  });

  it("refuses bad queries with Sentry's messages, and projects of another organization", async () => {
    const refused = async (query: string) => (await api.request('GET', `/api/0/organizations/acme/stats_v2/?${query}`)).body;
    expect(await refused('groupBy=category')).toEqual({ detail: 'At least one "field" is required.' });
    expect(await refused('field=sum(quantity)')).toEqual({ detail: 'Query must have category as groupby or filter' });
    expect(await refused('field=sum(quantity)&groupBy=category&interval=10m')).toEqual({
      detail: 'The interval has to be a multiple of the minimum interval of one hour.',
    });
    const other = await api.request('GET', '/api/0/organizations/acme/stats_v2/?field=sum(quantity)&groupBy=category&project=999999');
    expect(other.status).toBe(404);
    expect((await api.request('GET', '/api/0/organizations/nope/stats_v2/?field=sum(quantity)&groupBy=category')).status).toBe(404);
  });

  it('shows the usage page in a browser: a category by outcome over the period, and totals by category', async () => {
    const browser = await launchBrowser();
    try {
      const { page, errors } = await newPage(browser);
      await signIn(page, api);
      await page.goto(`${api.baseUrl}/organizations/acme/stats/`);
      // Both projects' errors: two stored of each, the web project's filtered one.
      await page
        .getByRole('img', { name: /^Errors by outcome\. Accepted: 4, Filtered: 1, Rate limited: [1-3], Invalid: 0, Client discard: [2-4]\.$/ })
        .waitFor();
      expect(await page.getByRole('link', { name: 'Stats' }).getAttribute('aria-current')).toBe('page');
      const transactions = page.getByRole('region', { name: 'By category' }).getByRole('row', { name: /^Transactions/ });
      expect(await transactions.getByRole('cell').allTextContents()).toEqual(['0', '1', '0', '0', '0']);
      await page.getByRole('combobox', { name: /^Category/ }).selectOption('session');
      await page.getByRole('img', { name: /^Sessions by outcome\. Accepted: 1, Filtered: 0,/ }).waitFor();
      expect(page.url()).toContain('dataCategory=session');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
