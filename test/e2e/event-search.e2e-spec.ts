import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { EVENT_FIELDS, type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const MINUTE = 60_000;
const SENTRY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

/**
 * Sentry's events API over the errors dataset (`/organizations/{org}/events/`), over events
 * recorded the way the ingest worker records them, with the clock fixed.
 */
describe('event search', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;
  let otherProjectId: string;
  let outsiderToken: string;
  const issueIds: Record<string, string> = {};

  function ingested(
    project: { id: string; slug: string },
    fingerprint: string,
    minutesAgo: number,
    options: {
      user?: { id: string; email?: string };
      title?: string;
      release?: string;
      environment?: string;
      level?: string;
      tags?: Array<[string, string]>;
    } = {},
  ): IngestedEvent {
    const occurredAt = new Date(NOW.getTime() - minutesAgo * MINUTE).toISOString();
    const title = options.title ?? `TypeError: ${fingerprint} failed`;
    const release = options.release ?? 'shop@1.0.0';
    const environment = options.environment ?? 'production';
    const level = options.level ?? 'error';
    const tags: Array<[string, string]> = options.tags ?? [['browser', 'Chrome']];
    return {
      projectId: project.id,
      projectSlug: project.slug,
      organizationId,
      eventId: randomUUID().replace(/-/g, ''),
      fingerprintHash: fingerprint,
      title,
      culprit: `app/${fingerprint}.js in run`,
      level,
      platform: 'node',
      occurredAt,
      receivedAt: occurredAt,
      userHash: options.user?.id,
      release,
      tags: [
        ...tags,
        ['level', level],
        ['environment', environment],
        ['release', release],
        ...(options.user ? [['user', `id:${options.user.id}`] as [string, string]] : []),
      ],
      data: {
        timestamp: occurredAt,
        level,
        platform: 'node',
        title,
        culprit: `app/${fingerprint}.js in run`,
        exceptions: [{ type: title.split(':')[0], value: title.split(': ')[1] ?? '' }],
        tags,
        release,
        environment,
        transaction: `/${fingerprint}`,
        ...(options.user ? { user: options.user } : {}),
      },
    };
  }

  async function record(...events: IngestedEvent[]) {
    return database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  }

  const search = (params: string, token?: string) => api.request('GET', `/api/0/organizations/acme/events/?${params}`, { token });

  beforeAll(async () => {
    api = await startTestApp({}, { clock: new FixedClock(NOW) });
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    const other = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'API', slug: 'api' } });
    otherProjectId = other.body.id;
    const web = { id: projectId, slug: BOOTSTRAP.project };
    const apiProject = { id: otherProjectId, slug: 'api' };

    // checkout: 3 events from 2 users in the last hour; cart: 1 event, staging, a day and a half ago;
    // login: 2 events in the api project, one without a user.
    const recorded = await record(
      ingested(web, 'checkout', 5, {
        user: { id: 'u1', email: 'ada@example.com' },
        tags: [
          ['browser', 'Chrome'],
          ['region', 'eu'],
        ],
      }),
      ingested(web, 'checkout', 10, {
        user: { id: 'u1', email: 'ada@example.com' },
        tags: [
          ['browser', 'Firefox'],
          ['region', 'eu'],
        ],
      }),
      ingested(web, 'checkout', 20, { user: { id: 'u2', email: 'bob@example.com' }, release: 'shop@1.1.0', tags: [['browser', 'Chrome']] }),
      ingested(web, 'cart', 36 * 60, { user: { id: 'u3' }, environment: 'staging', level: 'warning', title: 'CartError: empty cart' }),
      ingested(apiProject, 'login', 30, { user: { id: 'u1', email: 'ada@example.com' }, title: 'AuthError: bad password' }),
      ingested(apiProject, 'login', 40, { title: 'AuthError: bad password' }),
    );
    issueIds.checkout = recorded[0].issueId;
    issueIds.cart = recorded[3].issueId;
    issueIds.login = recorded[4].issueId;

    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    outsiderToken = (
      await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
        body: { name: 'all', scopes: ['org:admin', 'project:admin', 'event:admin'] },
      })
    ).body.token;
  });

  afterAll(async () => {
    await api?.close();
  });

  it("lists events with the fields asked for, newest first, with Sentry's meta", async () => {
    const response = await search(
      'field=id&field=title&field=issue&field=project&field=timestamp&field=user.email&field=tags[browser]&sort=-timestamp&statsPeriod=24h&dataset=errors',
    );
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({
      fields: { id: 'string', title: 'string', issue: 'string', project: 'string', timestamp: 'date', 'user.email': 'string', 'tags[browser]': 'string' },
      units: { id: null, title: null, issue: null, project: null, timestamp: null, 'user.email': null, 'tags[browser]': null },
      isMetricsData: false,
      dataset: 'errors',
    });
    expect(response.body.data).toHaveLength(5);
    expect(response.body.data[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      title: 'TypeError: checkout failed',
      issue: 'WEB-1',
      project: 'web',
      timestamp: '2026-03-10T11:55:00+00:00',
      'user.email': 'ada@example.com',
      'tags[browser]': 'Chrome',
    });
    expect(response.body.data.map((row: { timestamp: string }) => row.timestamp)).toEqual([
      '2026-03-10T11:55:00+00:00',
      '2026-03-10T11:50:00+00:00',
      '2026-03-10T11:40:00+00:00',
      '2026-03-10T11:30:00+00:00',
      '2026-03-10T11:20:00+00:00',
    ]);
    expect(response.body.data.every((row: { timestamp: string }) => SENTRY_TIME.test(row.timestamp))).toBe(true);
  });

  it('groups by the plain fields when aggregates are asked for, and the counts agree with the issues', async () => {
    const response = await search(
      'field=issue&field=title&field=count()&field=count_unique(user)&field=last_seen()&field=first_seen()&sort=-count&statsPeriod=14d',
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        issue: 'WEB-1',
        title: 'TypeError: checkout failed',
        'count()': 3,
        'count_unique(user)': 2,
        'last_seen()': '2026-03-10T11:55:00+00:00',
        'first_seen()': '2026-03-10T11:40:00+00:00',
      },
      {
        issue: 'API-1',
        title: 'AuthError: bad password',
        'count()': 2,
        'count_unique(user)': 1,
        'last_seen()': '2026-03-10T11:30:00+00:00',
        'first_seen()': '2026-03-10T11:20:00+00:00',
      },
      {
        issue: 'WEB-2',
        title: 'CartError: empty cart',
        'count()': 1,
        'count_unique(user)': 1,
        'last_seen()': '2026-03-09T00:00:00+00:00',
        'first_seen()': '2026-03-09T00:00:00+00:00',
      },
    ]);
    expect(response.body.meta.fields).toEqual({
      issue: 'string',
      title: 'string',
      'count()': 'integer',
      'count_unique(user)': 'integer',
      'last_seen()': 'date',
      'first_seen()': 'date',
    });
    for (const row of response.body.data) {
      const issue = await api.request('GET', `/api/0/organizations/acme/issues/${row.issue}/`);
      expect({ issue: row.issue, count: String(row['count()']), userCount: row['count_unique(user)'] }).toEqual({
        issue: row.issue,
        count: issue.body.count,
        userCount: issue.body.userCount,
      });
    }

    const total = await search('field=count()&field=count_unique(issue)&statsPeriod=14d');
    expect(total.body.data).toEqual([{ 'count()': 6, 'count_unique(issue)': 3 }]);
    // Sentry's sort names an aggregate by its alias or as written.
    expect((await search('field=issue&field=count()&sort=count()&statsPeriod=14d')).body.data.map((row: { issue: string }) => row.issue)).toEqual([
      'WEB-2',
      'API-1',
      'WEB-1',
    ]);
  });

  it.each([
    ['key:value', 'level:warning', ['WEB-2']],
    ['negation', '!level:warning', ['WEB-1', 'API-1']],
    ['a value list', 'release:[shop@1.1.0, nothing]', ['WEB-1']],
    ['a tag by name', 'browser:Firefox', ['WEB-1']],
    ['a tag as tags[key]', 'tags[region]:eu', ['WEB-1']],
    ['has:', 'has:region', ['WEB-1']],
    ['!has:', '!has:user.email', ['WEB-2', 'API-1']],
    ['has: on a time and a number', 'has:timestamp has:issue.id has:error.type', ['WEB-1', 'WEB-2', 'API-1']],
    ['an empty quoted value (the tag is absent)', 'region:""', ['WEB-1', 'WEB-2', 'API-1']],
    ['a wildcard', 'user.email:*@example.com', ['WEB-1', 'API-1']],
    ['the user tag', 'user:id:u3', ['WEB-2']],
    ['a project', 'project:api', ['API-1']],
    ['a project wildcard', 'project:we*', ['WEB-1', 'WEB-2']],
    ['an issue', 'issue.id:ISSUE_LOGIN', ['API-1']],
    ['a relative time', 'timestamp:-1h', ['WEB-1', 'API-1']],
    ['a time comparison', 'timestamp:<2026-03-10T00:00:00Z', ['WEB-2']],
    ['quoted free text', '"bad password"', ['API-1']],
    ['free text', 'checkout', ['WEB-1']],
    ['an error type', 'error.type:CartError', ['WEB-2']],
    ['an aggregate condition', 'count():>1', ['WEB-1', 'API-1']],
  ])('searches by %s (%s)', async (_name, query, expected) => {
    const text = query.replace('ISSUE_LOGIN', issueIds.login);
    const response = await search(`field=issue&field=count()&sort=-count&statsPeriod=14d&query=${encodeURIComponent(text)}`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((row: { issue: string }) => row.issue).sort()).toEqual([...expected].sort());
  });

  it('narrows by project, environment and time range, and pages with Link', async () => {
    expect((await search(`field=id&project=${otherProjectId}&statsPeriod=14d`)).body.data).toHaveLength(2);
    expect((await search('field=id&environment=staging&statsPeriod=14d')).body.data).toHaveLength(1);
    expect((await search('field=id&statsPeriod=1h')).body.data).toHaveLength(5);
    expect((await search('field=id&start=2026-03-08T00:00:00Z&end=2026-03-10T00:00:00Z')).body.data).toHaveLength(1);
    const first = await search('field=id&field=timestamp&sort=-timestamp&statsPeriod=14d&per_page=4');
    expect(first.body.data).toHaveLength(4);
    expect(first.headers.get('link')).toContain('rel="next"; results="true"');
    const second = await search('field=id&field=timestamp&sort=-timestamp&statsPeriod=14d&per_page=4&cursor=0:4:0');
    expect(second.body.data).toHaveLength(2);
    expect(new Set([...first.body.data, ...second.body.data].map((row: { id: string }) => row.id)).size).toBe(6);
  });

  it.each([
    ['an unsupported field', 'field=stack.filename', 'stack.filename'],
    ['an unsupported function', 'field=avg(transaction.duration)', 'avg(transaction.duration)'],
    ['a count_unique of an unsupported field', 'field=count_unique(os.version)', 'os.version'],
    ['an unsupported search key', 'field=id&query=stack.filename:app.js', 'stack.filename'],
    ['a sort outside the fields', 'field=id&sort=-count', 'count'],
    ['another dataset', 'field=id&dataset=spans', 'spans'],
    ['a malformed period', 'field=id&statsPeriod=forever', 'statsPeriod'],
    ['no field', 'query=level:error', 'field'],
    ['a bad query', 'field=id&query=%22unbalanced', 'quotes'],
    ["another organization's project", 'field=id&project=999999', '999999'],
  ])('answers 400 naming %s', async (_name, params, named) => {
    const response = await search(params);
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(named);
  });

  it('answers every combination of fields, aggregates, filters and sorts with 200 or a 400, never a server error', async () => {
    const plain = [...Object.keys(EVENT_FIELDS), 'browser', 'tags[region]'];
    const field = fc.oneof(
      fc.constantFrom(...plain),
      fc.constantFrom('count()', 'last_seen()', 'first_seen()'),
      fc.constantFrom(...plain).map((name) => `count_unique(${name})`),
    );
    const value = fc.constantFrom('eu', '"a b"', '[x, y]', '*u*', '-1h', '2026-03-01', '>2026-03-01T00:00:00', '>=5', '<1k', '""', '12');
    const term = fc.oneof(
      fc
        .tuple(fc.boolean(), fc.constantFrom(...plain, 'count()', 'count_unique(user)'), value)
        .map(([negated, key, text]) => `${negated ? '!' : ''}${key}:${text}`),
      fc.tuple(fc.boolean(), fc.constantFrom(...plain)).map(([negated, key]) => `${negated ? '!' : ''}has:${key}`),
      fc.constantFrom('checkout', '"bad password"', 'fail*'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(field, { minLength: 1, maxLength: 4 }),
        fc.array(term, { maxLength: 3 }),
        fc.boolean(),
        async (fields, terms, descending) => {
          const params = new URLSearchParams({ query: terms.join(' '), statsPeriod: '14d', sort: `${descending ? '-' : ''}${fields[0]}` });
          for (const name of fields) params.append('field', name);
          const response = await search(params.toString());
          expect({ params: params.toString(), status: response.status < 500 ? 'answered' : response.status }).toEqual({
            params: params.toString(),
            status: 'answered',
          });
          if (response.status === 200) expect(Object.keys(response.body.meta.fields)).toEqual(fields);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("narrows an issue's events by the same search, time range and environment", async () => {
    const events = (issue: string, params: string) => api.request('GET', `/api/0/organizations/acme/issues/${issue}/events/?${params}`);
    const ids = (response: { body: Array<{ eventID: string }> }) => response.body.map((event) => event.eventID);
    const all = await events(issueIds.checkout, '');
    expect(all.body).toHaveLength(3);
    expect(ids(await events(issueIds.checkout, 'query=browser:Firefox'))).toEqual([all.body[1].eventID]);
    expect(ids(await events(issueIds.checkout, `query=${encodeURIComponent('user.email:bob@example.com')}`))).toEqual([all.body[2].eventID]);
    expect(ids(await events(issueIds.checkout, `query=${encodeURIComponent('!release:shop@1.1.0')}&statsPeriod=1h`))).toEqual(ids(all).slice(0, 2));
    expect(ids(await events(issueIds.checkout, 'statsPeriod=7m'))).toEqual([all.body[0].eventID]);
    expect((await events(issueIds.checkout, 'environment=staging')).body).toEqual([]);
    expect((await events(issueIds.cart, 'environment=staging')).body).toHaveLength(1);
    // The search never reaches another issue's events.
    expect((await events(issueIds.checkout, 'query=level:warning')).body).toEqual([]);
    const refused = await events(issueIds.checkout, 'query=stack.filename:app.js');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('stack.filename');
  });

  it("never shows another organization's events", async () => {
    expect((await search(`field=id&project=${projectId}`, outsiderToken)).status).toBe(404);
    expect((await search('field=id&field=count()&statsPeriod=14d', outsiderToken)).status).toBe(404);
    const probe = await api.request('GET', `/api/0/organizations/initech/events/?field=id&project=${projectId}`, { token: outsiderToken });
    expect(probe.status).toBe(400);
    const initech = await api.request('GET', '/api/0/organizations/initech/events/?field=id&field=title&statsPeriod=14d', { token: outsiderToken });
    expect(initech.status).toBe(200);
    expect(initech.body.data).toEqual([]);
  });

  it('matches project wildcards in time linear in the slug: 100 `*` answer at once, and another tenant is served meanwhile', async () => {
    // A backtracking translation of `project:***…x` tries every split of the slug among the stars:
    // seconds for a five-letter slug, per term, with the whole process frozen.
    expect((await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Store', slug: 'store' } })).status).toBe(201);
    const stars = '*'.repeat(100);
    const attack = `project:${stars}x project:${stars}y project:${stars}z !project:${stars}w`;
    const timed = async (request: Promise<{ status: number; body: any }>) => {
      const started = Date.now();
      const response = await request;
      return { status: response.status, body: response.body, seconds: (Date.now() - started) / 1000 };
    };
    const [attacked, other] = await Promise.all([
      timed(search(`field=id&statsPeriod=14d&query=${encodeURIComponent(attack)}`)),
      timed(api.request('GET', '/api/0/organizations/initech/events/?field=id&statsPeriod=14d', { token: outsiderToken })),
    ]);
    expect(attacked).toMatchObject({ status: 200, body: { data: [] } });
    expect(attacked.seconds).toBeLessThan(5);
    expect(other).toMatchObject({ status: 200, body: { data: [] } });
    expect(other.seconds).toBeLessThan(5);
    const starred = await search(`field=issue&field=count()&statsPeriod=14d&query=${encodeURIComponent(`project:${stars}e${stars}`)}`);
    expect(starred.body.data.map((row: { issue: string }) => row.issue).sort()).toEqual(['WEB-1', 'WEB-2']);
  });
});
