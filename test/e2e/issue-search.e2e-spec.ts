import { randomUUID } from 'node:crypto';
import { FixedClock } from '@faultline/kernel';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const NOW = new Date('2025-03-10T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface EventOptions {
  readonly environment?: string;
  readonly release?: string;
  readonly tags?: ReadonlyArray<readonly [string, string]>;
  readonly title?: string;
  readonly culprit?: string;
  readonly level?: string;
  readonly user?: string;
}

/**
 * Sentry's issue search over HTTP: environments, releases, tags, negation, has:, comparisons,
 * wildcards and refusals, on issues made the way the ingest worker makes them, at a fixed time.
 */
describe('issue search', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let initechId: string;
  const projects: Record<string, string> = {};
  const issues: Record<string, string> = {};

  function event(project: string, fingerprint: string, ago: number, options: EventOptions = {}): IngestedEvent {
    const occurredAt = new Date(NOW.getTime() - ago).toISOString();
    const title = options.title ?? `TypeError: ${fingerprint} is undefined`;
    const level = options.level ?? 'error';
    const tags: Array<readonly [string, string]> = [...(options.tags ?? []), ['level', level]];
    if (options.environment) tags.push(['environment', options.environment]);
    if (options.release) tags.push(['release', options.release]);
    if (options.user) tags.push(['user', `id:${options.user}`]);
    return {
      projectId: projects[project],
      projectSlug: project,
      organizationId: project === 'billing' ? initechId : organizationId,
      eventId: randomUUID().replace(/-/g, ''),
      fingerprintHash: fingerprint,
      title,
      culprit: options.culprit ?? `app/${fingerprint}.js in render`,
      level,
      platform: 'javascript',
      occurredAt,
      receivedAt: occurredAt,
      userHash: options.user,
      release: options.release,
      tags,
      data: { title, level, environment: options.environment, release: options.release, tags: options.tags ?? [] },
    };
  }

  async function record(...events: IngestedEvent[]): Promise<string> {
    const recorded = await database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
    return recorded[0].issueId;
  }

  const search = async (query: string, path = '/api/0/organizations/acme/issues/') => {
    const response = await api.request('GET', `${path}${path.includes('?') ? '&' : '?'}query=${encodeURIComponent(query)}`);
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return (response.body as Array<{ id: string }>).map((issue) => issue.id).sort();
  };
  const named = (...names: string[]) => names.map((name) => issues[name]).sort();
  const refusal = async (query: string, path = '/api/0/organizations/acme/issues/') => {
    const response = await api.request('GET', `${path}?query=${encodeURIComponent(query).replace('%26query%3D', '&query=')}`);
    expect({ query, status: response.status }).toEqual({ query, status: 400 });
    return response.body.detail as string;
  };

  beforeAll(async () => {
    api = await startTestApp({}, { clock: new FixedClock(NOW) });
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projects.web = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    projects.api = (await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'API', slug: 'api' } })).body.id;
    initechId = (await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } })).body.id;
    await api.request('POST', '/api/0/organizations/initech/teams/', { body: { slug: 'ops' } });
    projects.billing = (await api.request('POST', '/api/0/teams/initech/ops/projects/', { body: { name: 'Billing', slug: 'billing' } })).body.id;

    // checkout: production, the newest release, EU, five events over two days, two users.
    issues.checkout = await record(
      ...[48, 30, 20, 10, 1].map((hours, index) =>
        event('web', 'checkout', hours * HOUR, {
          environment: 'production',
          release: 'shop@4.12.0',
          tags: [
            ['region', 'eu'],
            ['browser', 'Chrome 120'],
          ],
          user: `u${index % 2}`,
        }),
      ),
    );
    // cart: staging, an older release, US, one event ten days ago.
    issues.cart = await record(
      event('web', 'cart', 10 * DAY, {
        environment: 'staging',
        release: 'shop@4.11.0',
        tags: [
          ['region', 'us'],
          ['browser', 'Firefox'],
        ],
      }),
    );
    // payment: production, no release, no region, a warning about 50% of cards.
    issues.payment = await record(
      event('web', 'payment', 3 * DAY, { environment: 'production', title: 'Payment failed for 50% of cards', culprit: 'billing', level: 'warning' }),
      event('web', 'payment', 2 * DAY, { environment: 'production', title: 'Payment failed for 50% of cards', culprit: 'billing', level: 'warning' }),
    );
    // gateway: the api project, production, its own release line.
    issues.gateway = await record(event('api', 'gateway', 5 * HOUR, { environment: 'production', release: 'api@2.0.0', tags: [['region', 'eu-west']] }));
    // Another organization's issue with the very same tags never shows.
    issues.foreign = await record(event('billing', 'checkout', HOUR, { environment: 'production', release: 'shop@4.12.0', tags: [['region', 'eu']] }));
    // The project's releases, as the ingest path's release rollup records them (these events skip it).
    await database.execute(
      `INSERT INTO ingest.tag_values (project_id, key, value, times_seen, first_seen, last_seen) VALUES
         ($1, 'release', 'shop@4.11.0', 1, $3::timestamptz - interval '10 days', $3), ($1, 'release', 'shop@4.12.0', 1, $3::timestamptz - interval '2 days', $3),
         ($2, 'release', 'api@2.0.0', 1, $3, $3)`,
      [projects.web, projects.api, NOW.toISOString()],
    );
    // The users events named, as the ingest path's user rollup records them.
    await database.execute(
      `INSERT INTO ingest.event_users (project_id, hash, user_ident, email, date_created) VALUES ($1, 'u0', NULL, 'ann@shop.test', $2), ($1, 'u1', 'u1', 'bob@shop.test', $2)`,
      [projects.web, NOW.toISOString()],
    );
  });

  afterAll(async () => {
    await api?.close();
  });

  it('finds issues by environment, in the query and in the repeated environment parameter', async () => {
    expect(await search('environment:production')).toEqual(named('checkout', 'payment', 'gateway'));
    expect(await search('environment:staging', '/api/0/projects/acme/web/issues/')).toEqual(named('cart'));
    expect(await search('', '/api/0/organizations/acme/issues/?environment=staging&environment=production')).toEqual(
      named('checkout', 'cart', 'payment', 'gateway'),
    );
    expect(await search('', '/api/0/projects/acme/web/issues/?environment=staging')).toEqual(named('cart'));
    expect(await search('environment:development')).toEqual([]);
  });

  it('finds issues by release, latest included', async () => {
    expect(await search('release:shop@4.12.0')).toEqual(named('checkout'));
    expect(await search('release:latest')).toEqual(named('checkout', 'gateway'));
    expect(await search('release:latest', '/api/0/projects/acme/web/issues/')).toEqual(named('checkout'));
    expect(await search('firstRelease:shop@4.11.0')).toEqual(named('cart'));
    expect(await search('release:[shop@4.11.0, api@2.0.0]')).toEqual(named('cart', 'gateway'));
  });

  it('reads any other key as a tag, with quotes, wildcards and lists', async () => {
    expect(await search('region:eu')).toEqual(named('checkout'));
    expect(await search('browser:"Chrome 120"')).toEqual(named('checkout'));
    expect(await search('region:eu*')).toEqual(named('checkout', 'gateway'));
    expect(await search('region:*u*')).toEqual(named('checkout', 'cart', 'gateway'));
    expect(await search('region:[us, eu-west]')).toEqual(named('cart', 'gateway'));
    expect(await search('tags[region]:us')).toEqual(named('cart'));
    expect(await search('user:id:u1')).toEqual(named('checkout'));
    // LIKE's own characters match only themselves.
    expect(await search('region:e_*')).toEqual([]);
    expect(await search('region:%*')).toEqual([]);
  });

  it('negates any filter with !', async () => {
    expect(await search('!environment:production')).toEqual(named('cart'));
    expect(await search('!region:eu')).toEqual(named('cart', 'payment', 'gateway'));
    expect(await search('!level:error')).toEqual(named('payment'));
    expect(await search('environment:production !release:latest')).toEqual(named('payment'));
    expect(await search('!message:Payment')).toEqual(named('checkout', 'cart', 'gateway'));
  });

  it('finds issues with and without a tag or field (has:, !has:)', async () => {
    expect(await search('has:region')).toEqual(named('checkout', 'cart', 'gateway'));
    expect(await search('!has:region')).toEqual(named('payment'));
    expect(await search('!has:release')).toEqual(named('payment'));
    expect(await search('has:firstRelease')).toEqual(named('checkout', 'cart', 'gateway'));
    expect(await search('is:unassigned !has:assigned')).toEqual(named('checkout', 'cart', 'payment', 'gateway'));
  });

  it('compares first and last seen (relative and absolute) and counts', async () => {
    expect(await search('firstSeen:-24h')).toEqual(named('gateway'));
    expect(await search('age:+7d')).toEqual(named('cart'));
    expect(await search('lastSeen:-24h')).toEqual(named('checkout', 'gateway'));
    expect(await search('lastSeen:<2025-03-09')).toEqual(named('cart', 'payment'));
    expect(await search('firstSeen:>=2025-03-07T12:00:00Z')).toEqual(named('checkout', 'payment', 'gateway'));
    expect(await search('firstSeen:2025-02-28')).toEqual(named('cart'));
    expect(await search('timesSeen:>=2')).toEqual(named('checkout', 'payment'));
    expect(await search('timesSeen:5')).toEqual(named('checkout'));
    expect(await search('!timesSeen:1')).toEqual(named('checkout', 'payment'));
    expect(await search('userCount:2')).toEqual(named('checkout'));
  });

  it("finds issues by their users' e-mail, id, username and address", async () => {
    expect(await search('user.email:ann@shop.test')).toEqual(named('checkout'));
    expect(await search('user.email:*@shop.test')).toEqual(named('checkout'));
    expect(await search('user.id:u1')).toEqual(named('checkout'));
    expect(await search('has:user.email')).toEqual(named('checkout'));
    expect(await search('!user.email:bob@shop.test')).toEqual(named('cart', 'payment', 'gateway'));
    expect(await search('user.username:ann')).toEqual([]);
  });

  it('matches free text and message: in titles and culprits, wildcards included', async () => {
    expect(await search('Payment failed')).toEqual(named('payment'));
    expect(await search('message:"50% of"')).toEqual(named('payment'));
    expect(await search('message:*gateway*undefined')).toEqual(named('gateway'));
    expect(await search('50_')).toEqual([]);
  });

  it('finds issues by short id and id', async () => {
    const { shortId } = (await api.request('GET', `/api/0/organizations/acme/issues/${issues.cart}/`)).body;
    expect(await search(`issue:${shortId.toLowerCase()}`)).toEqual(named('cart'));
    expect(await search(`issue.id:[${issues.cart}, ${issues.gateway}]`)).toEqual(named('cart', 'gateway'));
    expect(await search(`!issue.id:${issues.cart}`)).toEqual(named('checkout', 'payment', 'gateway'));
  });

  it('finds issues by assignee: me, none, a member e-mail and a team', async () => {
    const path = `/api/0/organizations/acme/issues/${issues.cart}/`;
    expect((await api.request('PUT', path, { body: { assignedTo: BOOTSTRAP.email } })).status).toBe(200);
    const teamId = (await api.request('GET', '/api/0/teams/acme/acme/')).body.id;
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issues.payment}/`, { body: { assignedTo: `team:${teamId}` } })).status).toBe(200);
    expect(await search('assigned:me')).toEqual(named('cart'));
    expect(await search(`assigned:${BOOTSTRAP.email.toUpperCase()}`)).toEqual(named('cart'));
    expect(await search('assigned:#acme')).toEqual(named('payment'));
    expect(await search('assigned:[me, #acme]')).toEqual(named('cart', 'payment'));
    expect(await search('assigned:none')).toEqual(named('checkout', 'gateway'));
    expect(await search('!assigned:me is:assigned')).toEqual(named('payment'));
    expect(await search('assigned:nobody@nowhere.test')).toEqual([]);
    await api.request('PUT', path, { body: { assignedTo: null } });
    await api.request('PUT', `/api/0/organizations/acme/issues/${issues.payment}/`, { body: { assignedTo: null } });
  });

  it("keeps every search within the organization's own issues", async () => {
    const outsider = (await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', { body: { name: 'x', scopes: ['event:read'] } })).body.token;
    const theirs = await api.request('GET', `/api/0/organizations/initech/issues/?query=${encodeURIComponent('region:eu environment:production')}`, {
      token: outsider,
    });
    expect(theirs.body.map((issue: { id: string }) => issue.id)).toEqual([issues.foreign]);
    expect(await search('region:eu environment:production')).toEqual(named('checkout'));
  });

  it('refuses keys it cannot answer and malformed queries with 400 and what is wrong', async () => {
    expect(await refusal('subscribed:me')).toBe('Error parsing search query: Invalid key for this search: subscribed (subscriptions are not kept)');
    expect(await refusal('error.type:TypeError')).toContain('Invalid key for this search: error.type');
    expect(await refusal('environment:production user.segment:paid', '/api/0/projects/acme/web/issues/')).toContain('user.segment');
    expect(await refusal('is:for_review')).toContain('not supported');
    expect(await refusal('message:"unclosed')).toContain('Unbalanced quotes');
    expect(await refusal('firstSeen:>yesterday')).toContain('firstSeen: Invalid date: yesterday');
    expect(await refusal('timesSeen:>lots')).toContain('timesSeen: Invalid number: lots');
    expect(await refusal('environment:')).toContain("Empty string after 'environment:'");
    expect(await refusal('a OR b')).toContain('not supported');
    expect(await refusal('level:error&query=level:warning')).toBe('query may be given only once');
  });
});
