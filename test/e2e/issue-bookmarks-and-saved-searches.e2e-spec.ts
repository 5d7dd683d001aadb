import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes, FixedClock } from '@faultline/kernel';
import { CreateApiTokenCommand, type CreatedApiToken, ProvisionMemberCommand, type ProvisionedMember } from '@faultline/identity';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';

const NOW = new Date('2025-03-10T12:30:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Bookmarks, the stream's time range with its `X-Hits` count, and saved searches, over HTTP in
 * Sentry's shapes, with a member, an organization token and another organization trying their luck.
 */
describe('issue bookmarks, time range and saved searches', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;
  let memberToken: string;
  let orgToken: string;
  let outsiderToken: string;
  const issues: Record<string, string> = {};

  function event(fingerprint: string, ago: number): IngestedEvent {
    const occurredAt = new Date(NOW.getTime() - ago).toISOString();
    const title = `Error: ${fingerprint} failed`;
    return {
      projectId,
      projectSlug: 'web',
      organizationId,
      eventId: randomUUID().replace(/-/g, ''),
      fingerprintHash: fingerprint,
      title,
      culprit: `app/${fingerprint}.js`,
      level: 'error',
      platform: 'javascript',
      occurredAt,
      receivedAt: occurredAt,
      tags: [['level', 'error']],
      data: { title, level: 'error' },
    };
  }

  async function record(...events: IngestedEvent[]): Promise<string> {
    const recorded = await database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
    return recorded[0].issueId;
  }

  const list = async (params: string, token?: string) => {
    const response = await api.request('GET', `/api/0/organizations/acme/issues/?${params}`, { token });
    expect({ params, status: response.status, body: response.status === 200 ? 'list' : response.body }).toEqual({ params, status: 200, body: 'list' });
    return response;
  };
  const ids = async (params: string, token?: string) => ((await list(params, token)).body as Array<{ id: string }>).map((issue) => issue.id).sort();
  const named = (...names: string[]) => names.map((name) => issues[name]).sort();
  const searchIds = (query: string, token?: string) => ids(`query=${encodeURIComponent(query)}`, token);

  beforeAll(async () => {
    api = await startTestApp({}, { clock: new FixedClock(NOW) });
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    // recent: one event an hour ago. older: two events three days ago. busy: ten days ago, and three in the last day.
    issues.recent = await record(event('recent', HOUR));
    issues.older = await record(event('older', 3 * DAY), event('older', 3 * DAY + HOUR));
    issues.busy = await record(event('busy', 10 * DAY), event('busy', 10 * DAY), event('busy', 20 * HOUR), event('busy', 2 * HOUR), event('busy', 30 * 60_000));

    const commands = api.app.get(CommandBus);
    const member = await commands.execute<ProvisionMemberCommand, ProvisionedMember>(
      new ProvisionMemberCommand(organizationId, {
        userName: 'dev@acme.test',
        name: null,
        displayName: null,
        emails: [{ value: 'dev@acme.test', primary: true }],
        externalId: null,
        active: true,
        role: 'member',
      }),
    );
    memberToken = (
      await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
        new CreateApiTokenCommand('user', { userId: member.userId }, 'dev', ['event:read', 'event:write', 'org:read'], expandScopes(ALL_SCOPES)),
      )
    ).plaintext;
    orgToken = (await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ci', scopes: ['org:read', 'event:write'] } })).body
      .token;
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    outsiderToken = (
      await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', { body: { name: 'all', scopes: ['org:admin', 'event:admin'] } })
    ).body.token;
  });

  afterAll(async () => {
    await api?.close();
  });

  it('bookmarks issues per user, shows isBookmarked and finds them with bookmarks:', async () => {
    const one = await api.request('PUT', `/api/0/organizations/acme/issues/${issues.recent}/`, { body: { isBookmarked: true } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: issues.recent, isBookmarked: true });
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.recent}/`)).body.isBookmarked).toBe(true);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.recent}/`, { token: memberToken })).body.isBookmarked).toBe(false);

    expect(await searchIds('bookmarks:me')).toEqual(named('recent'));
    expect(await searchIds('!bookmarks:me')).toEqual(named('older', 'busy'));
    const flags = (await list('query=')).body as Array<{ id: string; isBookmarked: boolean }>;
    expect(Object.fromEntries(flags.map((issue) => [issue.id, issue.isBookmarked]))).toEqual({
      [issues.recent]: true,
      [issues.older]: false,
      [issues.busy]: false,
    });

    const bulk = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${issues.older}&id=${issues.busy}`, { body: { isBookmarked: true } });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ isPublic: false, isBookmarked: true });
    expect(await searchIds('bookmarks:admin@acme.test')).toEqual(named('recent', 'older', 'busy'));

    // The member's bookmarks are theirs; the admin finds them by the member's e-mail.
    expect(await searchIds('bookmarks:me', memberToken)).toEqual([]);
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/?id=${issues.busy}`, { token: memberToken, body: { isBookmarked: true } })).status).toBe(
      200,
    );
    expect(await searchIds('bookmarks:me', memberToken)).toEqual(named('busy'));
    expect(await searchIds('bookmarks:dev@acme.test')).toEqual(named('busy'));
    expect(await searchIds('bookmarked_by:[dev@acme.test, me] is:unresolved')).toEqual(named('recent', 'older', 'busy'));

    const off = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${issues.older}&id=${issues.busy}`, { body: { isBookmarked: false } });
    expect(off.body).toEqual({ isPublic: false, isBookmarked: false });
    expect(await searchIds('bookmarks:me')).toEqual(named('recent'));
  });

  it('refuses bookmarks it cannot keep, and changes nothing', async () => {
    const token = await api.request('PUT', `/api/0/organizations/acme/issues/${issues.older}/`, { token: orgToken, body: { isBookmarked: true } });
    expect(token.status).toBe(400);
    expect(token.body.detail).toMatch(/organization token has no user/);
    const tokenSearch = await api.request('GET', `/api/0/organizations/acme/issues/?query=bookmarks:me`, { token: orgToken });
    expect(tokenSearch.status).toBe(400);

    // One id of another organization (or none at all) makes the whole request 404.
    const mixed = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${issues.older}&id=999999`, { body: { isBookmarked: true } });
    expect(mixed.status).toBe(404);
    const outsider = await api.request('PUT', `/api/0/organizations/initech/issues/?id=${issues.older}`, { body: { isBookmarked: true } });
    expect(outsider.status).toBe(404);
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issues.older}/`, { body: { isBookmarked: 'yes' } })).status).toBe(400);
    expect(await searchIds('bookmarks:me')).toEqual(named('recent'));
  });

  it('limits the stream to a time range, counts its events in it and says how many match', async () => {
    const all = await list('query=');
    expect(all.headers.get('x-hits')).toBe('3');
    expect(all.headers.get('x-max-hits')).toBe('10000');

    const day = await list('query=&statsPeriod=24h');
    expect((day.body as Array<{ id: string }>).map((issue) => issue.id).sort()).toEqual(named('recent', 'busy'));
    expect(day.headers.get('x-hits')).toBe('2');
    const busy = (day.body as Array<{ id: string; count: string; lifetime: { count: string } }>).find((issue) => issue.id === issues.busy);
    expect(busy).toMatchObject({ count: '3', lifetime: { count: '5' } });

    expect(await ids('query=&statsPeriod=7d')).toEqual(named('recent', 'older', 'busy'));
    const span = `start=${new Date(NOW.getTime() - 4 * DAY).toISOString()}&end=${new Date(NOW.getTime() - 2 * DAY).toISOString()}`;
    const between = await list(`query=&${span}`);
    expect((between.body as Array<{ id: string; count: string }>).map(({ id, count }) => [id, count])).toEqual([[issues.older, '2']]);
    expect(between.headers.get('x-hits')).toBe('1');

    // With a search and a page: the count is of every match, the page of 1.
    const paged = await list('query=is:unresolved&statsPeriod=14d&per_page=1');
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-hits')).toBe('3');
    // Longer than retention (90 days): answered from the oldest kept event.
    expect(await ids('query=&statsPeriod=400d')).toEqual(named('recent', 'older', 'busy'));
    expect(await ids('query=&statsPeriod=999999w')).toEqual(named('recent', 'older', 'busy'));
  });

  it('answers a bad time range with 400', async () => {
    const bad = async (params: string) => {
      const response = await api.request('GET', `/api/0/organizations/acme/issues/?${params}`);
      expect({ params, status: response.status }).toEqual({ params, status: 400 });
      return response.body.detail as string;
    };
    expect(await bad('statsPeriod=soon')).toMatch(/Invalid statsPeriod/);
    expect(await bad('statsPeriod=0d')).toMatch(/Invalid statsPeriod/);
    expect(await bad('start=2025-03-09T00:00:00Z')).toMatch(/start and end/);
    expect(await bad('start=2025-03-09T00:00:00Z&end=2025-03-08T00:00:00Z')).toMatch(/start before end/);
    expect(await bad('start=yesterday&end=2025-03-08T00:00:00Z')).toMatch(/ISO 8601/);
    expect(await bad('statsPeriod=24h&start=2025-03-09T00:00:00Z&end=2025-03-10T00:00:00Z')).toMatch(/either statsPeriod/);
    expect(await bad('start=2024-01-01T00:00:00Z&end=2024-02-01T00:00:00Z')).toBe('Invalid date range. Please try a more recent date range.');
  });

  it('saves searches for their owner or the organization, in Sentry shapes', async () => {
    const created = await api.request('POST', '/api/0/organizations/acme/searches/', {
      body: { type: 0, name: 'My bookmarks', query: 'bookmarks:me is:unresolved', sort: 'freq' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      type: 0,
      name: 'My bookmarks',
      query: 'bookmarks:me is:unresolved',
      sort: 'freq',
      visibility: 'owner',
      dateCreated: NOW.toISOString(),
      isGlobal: false,
      isPinned: false,
    });
    const shared = await api.request('POST', '/api/0/organizations/acme/searches/', {
      body: { name: 'Unassigned', query: 'is:unassigned', visibility: 'organization' },
    });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ sort: 'date', visibility: 'organization' });

    const duplicate = await api.request('POST', '/api/0/organizations/acme/searches/', { body: { name: 'Again', query: 'bookmarks:me is:unresolved' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ detail: 'Query bookmarks:me is:unresolved already exists' });

    const names = async (token?: string, organization = 'acme') =>
      ((await api.request('GET', `/api/0/organizations/${organization}/searches/?type=0`, { token })).body as Array<{ name: string }>).map(
        (search) => search.name,
      );
    expect(await names()).toEqual(['My bookmarks', 'Unassigned']);
    expect(await names(memberToken)).toEqual(['Unassigned']);
    expect(await names(outsiderToken, 'initech')).toEqual([]);
    expect((await api.request('GET', '/api/0/organizations/acme/searches/', { token: outsiderToken })).status).toBeGreaterThanOrEqual(403);

    // A member keeps their own searches; sharing, or changing a shared one, needs org:write.
    const mine = await api.request('POST', '/api/0/organizations/acme/searches/', {
      token: memberToken,
      body: { name: 'Mine', query: 'bookmarks:me is:unresolved' },
    });
    expect(mine.status).toBe(201);
    const forbidden = await api.request('POST', '/api/0/organizations/acme/searches/', {
      token: memberToken,
      body: { name: 'Everyone', query: 'level:error', visibility: 'organization' },
    });
    expect(forbidden.status).toBe(403);
    expect((await api.request('PUT', `/api/0/organizations/acme/searches/${shared.body.id}/`, { token: memberToken, body: { name: 'Mine now' } })).status).toBe(
      403,
    );
    expect((await api.request('DELETE', `/api/0/organizations/acme/searches/${created.body.id}/`, { token: memberToken })).status).toBe(404);
    expect((await api.request('PUT', `/api/0/organizations/acme/searches/${created.body.id}/`, { token: outsiderToken, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect(await names(memberToken)).toEqual(['Mine', 'Unassigned']);

    const renamed = await api.request('PUT', `/api/0/organizations/acme/searches/${mine.body.id}/`, {
      token: memberToken,
      body: { name: 'Mine, by users', sort: 'user' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Mine, by users', query: 'bookmarks:me is:unresolved', sort: 'user', visibility: 'owner' });
    expect((await api.request('DELETE', `/api/0/organizations/acme/searches/${mine.body.id}/`, { token: memberToken })).status).toBe(204);
    expect((await api.request('DELETE', `/api/0/organizations/acme/searches/${shared.body.id}/`)).status).toBe(204);
    expect(await names(memberToken)).toEqual([]);
  });

  it('refuses bad saved searches and keeps to the budget', async () => {
    const post = (body: unknown, token?: string) => api.request('POST', '/api/0/organizations/acme/searches/', { body, token });
    for (const body of [
      { name: '', query: 'is:unresolved' },
      { name: 'x'.repeat(129), query: 'is:unresolved' },
      { name: 'Quote', query: 'message:"open' },
      { name: 'Long', query: 'a'.repeat(2_001) },
      { name: 'Sort', query: 'is:resolved', sort: 'random' },
      { name: 'Kind', query: 'is:resolved', type: 1 },
      { name: 'Visibility', query: 'is:resolved', visibility: 'everyone' },
      { query: 'is:resolved' },
    ]) {
      const response = await post(body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    expect((await post({ name: 'Token', query: 'is:resolved' }, orgToken)).status).toBe(400);
    expect((await api.request('GET', '/api/0/organizations/acme/searches/?type=1')).status).toBe(400);

    const searches = (await api.request('GET', '/api/0/organizations/acme/searches/')).body as Array<{ visibility: string }>;
    const before = searches.filter((search) => search.visibility === 'owner').length;
    for (let index = before; index < 100; index++) {
      expect((await post({ name: `Search ${index}`, query: `message:search-${index}` })).status).toBe(201);
    }
    const over = await post({ name: 'One too many', query: 'message:over' });
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe('You can keep at most 100 saved searches.');
    // The budget is per user: the member still saves theirs.
    expect((await post({ name: 'Member', query: 'message:over' }, memberToken)).status).toBe(201);
  });
});
