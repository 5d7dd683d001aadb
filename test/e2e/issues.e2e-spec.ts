import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand } from '@faultline/identity';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { Database, RetentionSchedule } from '@faultline/platform';
import { EventProcessing } from '@faultline/ingest';
import { FixedClock } from '@faultline/kernel';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { detail: 'The requested resource does not exist' };
const MINUTE = 60_000;

/**
 * The issues API over HTTP. Issues are made the way the ingest worker makes them (IssueIngestion
 * inside a transaction), with hand-made events, so these tests do not depend on the SDK path.
 */
describe('issues API', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;
  let teamId: string;
  let adminId: string;
  let carol: { id: string; email: string };
  let outsiderEmail: string;
  /** An organization token of acme (acts as an application). */
  let acmeOrgToken: { id: string; token: string };
  let readOnlyToken: string;
  /** A token of another organization with every event and project scope. */
  let outsiderToken: string;
  const T0 = Date.now() - 60 * MINUTE;
  const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
  const issues: Record<string, { id: string; shortId: string }> = {};

  function ingested(
    fingerprint: string,
    minutes: number,
    options: { user?: string; kind?: 'exception' | 'message'; title?: string; culprit?: string; release?: string } = {},
  ): IngestedEvent {
    const release = options.release ?? 'web@1.0.0';
    const eventId = randomUUID().replace(/-/g, '');
    const occurredAt = at(minutes);
    const kind = options.kind ?? 'exception';
    const title = options.title ?? `TypeError: ${fingerprint} is undefined`;
    const culprit = options.culprit ?? `app/${fingerprint}.js in render`;
    const [type, value] = title.split(': ');
    const data: Record<string, unknown> = {
      eventId,
      timestamp: occurredAt,
      receivedAt: occurredAt,
      level: 'error',
      platform: 'javascript',
      exceptions:
        kind === 'exception'
          ? [
              {
                type,
                value,
                mechanism: { type: 'onerror', handled: false },
                stacktrace: {
                  frames: [
                    { filename: 'node_modules/react.js', function: 'callCallback', lineno: 100, inApp: false },
                    {
                      filename: `app/${fingerprint}.js`,
                      absPath: `https://app.example.com/${fingerprint}.js`,
                      function: 'render',
                      lineno: 12,
                      colno: 7,
                      inApp: true,
                      preContext: ['function render() {', '  const x = undefined;'],
                      contextLine: '  return x.y;',
                      postContext: ['}'],
                    },
                  ],
                },
              },
            ]
          : [],
      ...(kind === 'message' ? { message: title } : {}),
      tags: [
        ['browser', 'Chrome'],
        ['custom', 'yes'],
      ],
      ...(options.user ? { user: { id: options.user, email: `${options.user}@example.com` } } : {}),
      release,
      environment: 'production',
      contexts: { browser: { name: 'Chrome', version: '120' } },
      request: { url: 'https://app.example.com/page', method: 'GET', headers: [['User-Agent', 'jest']], query: [['q', '1']] },
      sdk: { name: 'sentry.javascript.browser', version: '8.0.0' },
      culprit,
      title,
    };
    return {
      projectId,
      projectSlug: BOOTSTRAP.project,
      organizationId,
      eventId,
      fingerprintHash: fingerprint,
      title,
      culprit,
      level: 'error',
      platform: 'javascript',
      occurredAt,
      receivedAt: occurredAt,
      userHash: options.user,
      release,
      tags: [
        ['browser', 'Chrome'],
        ['custom', 'yes'],
        ['level', 'error'],
        ['environment', 'production'],
        ['release', release],
        ...(options.user ? [['user', `id:${options.user}`] as const] : []),
      ],
      data,
    };
  }

  async function record(...events: IngestedEvent[]) {
    return database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  }

  async function createIssue(fingerprint: string, minutes = 30): Promise<{ id: string; shortId: string }> {
    const [recorded] = await record(ingested(fingerprint, minutes));
    const issue = await api.request('GET', `/api/0/organizations/acme/issues/${recorded.issueId}/`);
    return { id: issue.body.id, shortId: issue.body.shortId };
  }

  /** Releases the project has seen, as ingestion's release rollup records them (events here skip ingestion). */
  async function seenReleases(...versions: string[]) {
    await database.execute(
      `INSERT INTO ingest.tag_values (project_id, key, value, times_seen, first_seen, last_seen)
       SELECT $1, 'release', version, 1, now(), now() FROM unnest($2::text[]) AS version ON CONFLICT DO NOTHING`,
      [projectId, versions],
    );
  }

  async function streamEvents(issueId: string): Promise<Array<{ event_type: string; data: any }>> {
    return database.query(`SELECT event_type, data FROM event_store.events WHERE stream_id = $1 ORDER BY version`, [`issue-${issueId}`]);
  }

  const ids = (body: Array<{ id: string }>) => body.map((issue) => issue.id);

  beforeAll(async () => {
    api = await startTestApp();
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    teamId = (await api.request('GET', '/api/0/teams/acme/acme/')).body.id;
    [{ id: adminId }] = await database.query<{ id: string }>(`SELECT id::text AS id FROM identity.users WHERE email = $1`, [BOOTSTRAP.email]);

    // A second member of acme, and a user who belongs to no organization of ours.
    const commands = api.app.get(CommandBus);
    const created = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('carol@acme.test', 'Carol'));
    carol = { id: String(created.id), email: 'carol@acme.test' };
    await database.execute(`INSERT INTO identity.organization_members (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [organizationId, carol.id]);
    outsiderEmail = 'dave@elsewhere.test';
    await commands.execute(new CreateUserCommand(outsiderEmail, 'Dave'));

    const orgToken = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', {
      body: { name: 'ci', scopes: ['event:admin', 'project:read', 'org:read'] },
    });
    acmeOrgToken = { id: orgToken.body.id, token: orgToken.body.token };
    readOnlyToken = (await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ro', scopes: ['event:read'] } })).body.token;

    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    const outsider = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'everything', scopes: ['org:admin', 'project:admin', 'event:admin'] },
    });
    outsiderToken = outsider.body.token;

    // A: 4 events, 1 user; B: 1 event (the latest), 1 user; C: 2 message events (the oldest first), 2 users.
    await record(
      ingested('fp-a', 1, { user: 'u1' }),
      ingested('fp-a', 2, { user: 'u1' }),
      ingested('fp-a', 3, { user: 'u1' }),
      ingested('fp-a', 4, { user: 'u1' }),
      ingested('fp-b', 10, { user: 'u1', title: 'ReferenceError: foo is not defined', culprit: 'lib/loader.js in load' }),
      ingested('fp-c', 0, { user: 'u2', kind: 'message', title: 'Payment failed', culprit: 'billing' }),
      ingested('fp-c', 5, { user: 'u3', kind: 'message', title: 'Payment failed', culprit: 'billing' }),
    );
    for (const [name, fingerprint] of [
      ['A', 'fp-a'],
      ['B', 'fp-b'],
      ['C', 'fp-c'],
    ]) {
      const [row] = await database.query<{ id: string; short_id: string }>(
        `SELECT id::text AS id, short_id FROM issues.issues WHERE project_id = $1 AND fingerprint_hash = $2`,
        [projectId, fingerprint],
      );
      issues[name] = { id: row.id, shortId: row.short_id };
    }
  });

  afterAll(async () => {
    await api?.close();
  });

  describe('lists', () => {
    it('serializes issues in Sentry group shape', async () => {
      const response = await api.request('GET', '/api/0/projects/acme/web/issues/?sort=freq');
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toContain('rel="next"; results="false"');
      const a = response.body[0];
      expect(a).toMatchObject({
        id: issues.A.id,
        shortId: issues.A.shortId,
        title: 'TypeError: fp-a is undefined',
        culprit: 'app/fp-a.js in render',
        level: 'error',
        status: 'unresolved',
        substatus: 'new',
        statusDetails: {},
        count: '4',
        userCount: 1,
        firstSeen: at(1),
        lastSeen: at(4),
        permalink: `http://127.0.0.1:${new URL(api.baseUrl).port}/organizations/acme/issues/${issues.A.id}/`,
        project: { id: projectId, slug: 'web', name: expect.any(String) },
        assignedTo: null,
        isBookmarked: false,
        isSubscribed: false,
        hasSeen: false,
        isPublic: false,
        shareId: null,
        numComments: 0,
        metadata: { type: 'TypeError', value: 'fp-a is undefined', title: 'TypeError: fp-a is undefined' },
        type: 'error',
        annotations: [],
        logger: null,
        platform: 'javascript',
      });
      expect(a.shortId).toMatch(/^WEB-\d+$/);
      expect(a.firstSeen).toMatch(ISO_MS);
      expect(a.project).toHaveProperty('platform');
      const c = response.body.find((issue: { id: string }) => issue.id === issues.C.id);
      expect(c.metadata).toEqual({ title: 'Payment failed' });
    });

    it("graphs each issue's events: hourly over 24h by default, daily over 14d, or none", async () => {
      const total = (series: Array<[number, number]>) => series.reduce((sum, [, count]) => sum + count, 0);
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600;
      const day = Math.floor(Date.now() / 86_400_000) * 86_400;
      const byDefault = await api.request('GET', '/api/0/projects/acme/web/issues/?sort=freq');
      const hourly = byDefault.body[0].stats['24h'];
      expect(Object.keys(byDefault.body[0].stats)).toEqual(['24h']);
      expect(hourly).toHaveLength(24);
      expect(hourly[23][0]).toBe(hour);
      expect(hourly[0][0]).toBe(hour - 23 * 3_600);
      expect(total(hourly)).toBe(4);

      const daily = (await api.request('GET', '/api/0/projects/acme/web/issues/?sort=freq&statsPeriod=14d')).body[0].stats['14d'];
      expect(daily).toHaveLength(14);
      expect(daily[13][0]).toBe(day);
      expect(total(daily)).toBe(4);

      expect((await api.request('GET', '/api/0/projects/acme/web/issues/?statsPeriod=')).body[0].stats).toEqual({});
      const organization = await api.request('GET', '/api/0/organizations/acme/issues/?groupStatsPeriod=14d&sort=freq');
      expect(total(organization.body[0].stats['14d'])).toBe(4);
      // auto: over the query's range, 14 days by default, hourly up to two days.
      const auto = async (query = '') => (await api.request('GET', `/api/0/organizations/acme/issues/?sort=freq&groupStatsPeriod=auto${query}`)).body[0].stats;
      expect(Object.keys(await auto())).toEqual(['auto']);
      expect((await auto()).auto).toEqual(daily);
      const lastDay = (await auto('&statsPeriod=24h')).auto;
      expect(lastDay).toEqual(hourly);
      expect((await auto('&statsPeriod=90d')).auto).toHaveLength(90);
      expect((await api.request('GET', '/api/0/organizations/acme/issues/?groupStatsPeriod=auto&statsPeriod=soon')).status).toBe(400);

      for (const [path, choices] of [
        ['/api/0/projects/acme/web/issues/?statsPeriod=7d', "'', '24h', and '14d'"],
        ['/api/0/organizations/acme/issues/?groupStatsPeriod=1w', "'', '24h', '14d', and 'auto'"],
      ]) {
        const bad = await api.request('GET', path);
        expect(bad.status).toBe(400);
        expect(bad.body.detail).toContain(`Valid choices are ${choices}.`);
      }
    });

    it('sorts by date, new, freq and user, and refuses other sorts', async () => {
      const sorted = async (sort?: string) => ids((await api.request('GET', `/api/0/projects/acme/web/issues/${sort ? `?sort=${sort}` : ''}`)).body);
      expect(await sorted()).toEqual([issues.B.id, issues.C.id, issues.A.id]);
      expect(await sorted('date')).toEqual([issues.B.id, issues.C.id, issues.A.id]);
      expect(await sorted('new')).toEqual([issues.B.id, issues.A.id, issues.C.id]);
      expect(await sorted('freq')).toEqual([issues.A.id, issues.C.id, issues.B.id]);
      expect(await sorted('user')).toEqual([issues.C.id, issues.B.id, issues.A.id]);
      const bad = await api.request('GET', '/api/0/projects/acme/web/issues/?sort=random');
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toContain('sort');
    });

    it('paginates with Link and cursor', async () => {
      const first = await api.request('GET', '/api/0/organizations/acme/issues/?per_page=2');
      expect(ids(first.body)).toEqual([issues.B.id, issues.C.id]);
      expect(first.headers.get('link')).toContain('rel="next"; results="true"; cursor="0:2:0"');
      const second = await api.request('GET', '/api/0/organizations/acme/issues/?per_page=2&cursor=0:2:0');
      expect(ids(second.body)).toEqual([issues.A.id]);
    });

    it('searches free text in title, culprit and short id', async () => {
      const search = async (query: string, path = '/api/0/organizations/acme/issues/') =>
        ids((await api.request('GET', `${path}?query=${encodeURIComponent(query)}`)).body);
      expect(await search('ReferenceError')).toEqual([issues.B.id]);
      expect(await search('is:unresolved render')).toEqual([issues.A.id]);
      expect(await search(issues.C.shortId.toLowerCase())).toEqual([issues.C.id]);
      expect(await search('billing', '/api/0/projects/acme/web/issues/')).toEqual([issues.C.id]);
      expect(await search('nothing-matches-this')).toEqual([]);
      expect((await api.request('GET', '/api/0/organizations/acme/issues/?query=is:bogus')).status).toBe(400);
    });

    it('filters the organization list by project id', async () => {
      const mine = await api.request('GET', `/api/0/organizations/acme/issues/?project=${projectId}`);
      expect(mine.body).toHaveLength(3);
      const all = await api.request('GET', '/api/0/organizations/acme/issues/?project=-1');
      expect(all.body).toHaveLength(3);
      const other = await api.request('GET', '/api/0/organizations/acme/issues/?project=999999&project=999998');
      expect(other.body).toEqual([]);
      expect((await api.request('GET', '/api/0/organizations/acme/issues/?project=web')).status).toBe(400);
    });
  });

  describe('one issue', () => {
    it('answers the issue by numeric id and by short id', async () => {
      const byId = await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.id}/`);
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({ id: issues.B.id, shortId: issues.B.shortId, count: '1', userCount: 1 });
      const byShortId = await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.shortId}/`);
      expect(byShortId.body).toEqual(byId.body);
      const lowerCase = await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.shortId.toLowerCase()}/`);
      expect(lowerCase.body.id).toBe(issues.B.id);
      for (const missing of ['999999', 'WEB-9999', 'not a short id']) {
        const response = await api.request('GET', `/api/0/organizations/acme/issues/${encodeURIComponent(missing)}/`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      }
    });

    it('shows the releases of its first and newest events, and its graphs over 24h and 30d', async () => {
      const [first] = await record(ingested('fp-releases', 20, { release: 'web@1.4.0' }));
      await record(
        ingested('fp-releases', 21, { release: 'web@1.5.0' }),
        ingested('fp-releases', 22, { release: 'web@17642328ead24b51867165985996d04b29310337' }),
      );
      const detail = (await api.request('GET', `/api/0/organizations/acme/issues/${first.issueId}/`)).body;
      expect(detail.firstRelease).toEqual({ version: 'web@1.4.0', shortVersion: '1.4.0', dateCreated: null, dateReleased: null, ref: null, url: null });
      expect(detail.lastRelease).toMatchObject({ version: 'web@17642328ead24b51867165985996d04b29310337', shortVersion: '1764232' });
      expect(detail.stats['24h']).toHaveLength(24);
      expect(detail.stats['30d']).toHaveLength(30);
      for (const series of [detail.stats['24h'], detail.stats['30d']]) {
        expect(series.reduce((sum: number, [, count]: [number, number]) => sum + count, 0)).toBe(3);
      }
      const listed = (await api.request('GET', `/api/0/projects/acme/web/issues/?query=${detail.shortId}`)).body[0];
      expect(listed.firstRelease).toEqual(detail.firstRelease);

      // Late arrivals count by their event time: an older event is first, one older than the newest is not last.
      await record(ingested('fp-releases', 19, { release: 'web@1.3.0' }), ingested('fp-releases', 21, { release: 'web@1.6.0' }));
      const after = (await api.request('GET', `/api/0/organizations/acme/issues/${first.issueId}/`)).body;
      expect([after.firstRelease.version, after.lastRelease.version]).toEqual(['web@1.3.0', 'web@17642328ead24b51867165985996d04b29310337']);
      await api.request('DELETE', `/api/0/organizations/acme/issues/${first.issueId}/`);
    });

    it('resolves through the aggregate, and resolving again changes nothing', async () => {
      const resolved = await api.request('PUT', `/api/0/organizations/acme/issues/${issues.A.id}/`, { body: { status: 'resolved' } });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ id: issues.A.id, status: 'resolved', substatus: null, statusDetails: {} });
      const stream = await streamEvents(issues.A.id);
      expect(stream.map((event) => event.event_type)).toEqual(['issues.IssueCreated', 'issues.IssueResolved']);
      expect(stream[1].data.actor).toEqual({ type: 'user', id: adminId, name: expect.any(String) });
      expect(stream[1].data.at).toMatch(ISO_MS);

      const again = await api.request('PUT', `/api/0/organizations/acme/issues/${issues.A.shortId}/`, { body: { status: 'resolved' } });
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('resolved');
      expect(await streamEvents(issues.A.id)).toHaveLength(2);

      // The default search is is:unresolved.
      expect(ids((await api.request('GET', '/api/0/projects/acme/web/issues/')).body)).not.toContain(issues.A.id);
      expect(ids((await api.request('GET', '/api/0/projects/acme/web/issues/?query=is:resolved')).body)).toEqual([issues.A.id]);
      expect(ids((await api.request('GET', '/api/0/projects/acme/web/issues/?query=')).body)).toContain(issues.A.id);
    });

    it('unresolving an unresolved issue, or ignoring an issue again the same way (even once its time has passed), changes nothing', async () => {
      const issue = await createIssue('fp-no-ops');
      const path = `/api/0/organizations/acme/issues/${issue.id}/`;
      const unresolved = await api.request('PUT', path, { body: { status: 'unresolved' } });
      expect(unresolved.status).toBe(200);
      expect(unresolved.body).toMatchObject({ status: 'unresolved' });
      expect(await streamEvents(issue.id)).toHaveLength(1);

      const until = new Date(Date.now() + 1000).toISOString();
      const ignored = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreUntil: until } } });
      expect(ignored.status).toBe(200);
      expect(await streamEvents(issue.id)).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, Date.parse(until) - Date.now() + 50));
      const again = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreUntil: until } } });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'ignored', statusDetails: { ignoreUntil: until } });
      expect(await streamEvents(issue.id)).toHaveLength(2);
      // Another time that has passed is refused.
      const past = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreUntil: new Date(Date.now() - 1000).toISOString() } } });
      expect(past.status).toBe(400);
      await api.request('DELETE', path);
    });

    it("resolves in the next release or the latest one, taken from the project's releases", async () => {
      const issue = await createIssue('fp-next-release');
      const path = `/api/0/organizations/acme/issues/${issue.id}/`;
      const noReleases = await api.request('PUT', path, { body: { status: 'resolvedInNextRelease' } });
      expect(noReleases.status).toBe(400);
      expect(noReleases.body.detail).toBe("No release data present in the system to form a basis for 'Next Release'");
      expect(await streamEvents(issue.id)).toHaveLength(1);

      // What ingestion's release rollup knows: 1.1.0 is the release the project saw first last.
      await database.execute(
        `INSERT INTO ingest.tag_values (project_id, key, value, times_seen, first_seen, last_seen) VALUES
           ($1, 'release', 'web@1.1.0', 1, $2, $2), ($1, 'release', 'web@1.0.0', 5, $3, $2)`,
        [projectId, at(5), at(0)],
      );
      const unknown = await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inRelease: 'web@7.7.7' } } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.detail).toBe('Unable to find the given release.');
      // Named together with a release, the next release wins, as in Sentry.
      const both = await api.request('PUT', path, { body: { status: 'resolvedInNextRelease', statusDetails: { inRelease: 'web@1.0.0' } } });
      expect(both.body.statusDetails).toEqual({ inNextRelease: true });
      await api.request('PUT', path, { body: { status: 'unresolved' } });
      const next = await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inNextRelease: true } } });
      expect(next.body).toMatchObject({ status: 'resolved', statusDetails: { inNextRelease: true } });
      const detail = (await api.request('GET', path)).body;
      expect(detail.statusDetails).toEqual({ inNextRelease: true });
      expect(detail.activity[0]).toMatchObject({ type: 'set_resolved_in_release', data: { version: '' } });
      expect((await streamEvents(issue.id))[1].data).toMatchObject({ inNextReleaseAfter: 'web@1.1.0' });

      await record(ingested('fp-next-release', 40, { release: 'web@1.1.0' }));
      expect((await api.request('GET', path)).body.status).toBe('resolved');
      await record(ingested('fp-next-release', 41, { release: 'web@1.2.0' }));
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'unresolved', substatus: 'regressed' });

      const latest = await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inRelease: 'latest' } } });
      expect(latest.body.statusDetails).toEqual({ inRelease: 'web@1.1.0' });
      expect((await api.request('GET', path)).body.statusDetails).toEqual({ inRelease: 'web@1.1.0' });

      // A release belongs to one project: resolving issues of two projects in one is refused.
      const other = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile' } });
      const [elsewhere] = await record({ ...ingested('fp-next-release', 42), projectId: other.body.id, projectSlug: 'mobile' });
      for (const [statusDetails, detail] of [
        [{ inRelease: 'latest' }, 'Cannot set resolved in release for multiple projects.'],
        [{ inNextRelease: true }, 'Cannot set resolved in next release for multiple projects.'],
      ] as const) {
        const bulk = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${issue.id}&id=${elsewhere.issueId}`, {
          body: { status: 'resolved', statusDetails },
        });
        expect(bulk.status).toBe(400);
        expect(bulk.body.detail).toBe(detail);
      }
      await api.request('DELETE', `/api/0/organizations/acme/issues/${elsewhere.issueId}/`);
      await api.request('DELETE', path);
    });

    it('regresses a resolved issue when another event arrives', async () => {
      await record(ingested('fp-a', 20, { user: 'u9' }));
      const issue = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/`);
      expect(issue.body).toMatchObject({ status: 'unresolved', substatus: 'regressed', count: '5', userCount: 2, lastSeen: at(20) });
      const stream = await streamEvents(issues.A.id);
      expect(stream.at(-1)).toMatchObject({ event_type: 'issues.IssueUnresolved', data: { reason: 'regression' } });
    });

    it('ignores for a while, forever, and unresolves', async () => {
      const path = `/api/0/organizations/acme/issues/${issues.B.id}/`;
      const before = Date.now();
      const forAnHour = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreDuration: 60 } } });
      expect(forAnHour.status).toBe(200);
      expect(forAnHour.body).toMatchObject({ status: 'ignored', substatus: 'archived_until_condition_met' });
      const until = Date.parse(forAnHour.body.statusDetails.ignoreUntil);
      expect(until).toBeGreaterThanOrEqual(before + 60 * MINUTE - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 60 * MINUTE + 1000);

      const byCount = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreCount: 10 } } });
      expect(byCount.body).toMatchObject({ status: 'ignored', statusDetails: { ignoreCount: 10 } });

      const forever = await api.request('PUT', path, { body: { status: 'ignored' } });
      expect(forever.body).toMatchObject({ status: 'ignored', substatus: 'archived_forever', statusDetails: {} });
      const sameAgain = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: {} } });
      expect(sameAgain.status).toBe(200);
      expect((await streamEvents(issues.B.id)).filter((event) => event.event_type === 'issues.IssueIgnored')).toHaveLength(3);

      expect(ids((await api.request('GET', '/api/0/organizations/acme/issues/?query=is:ignored')).body)).toEqual([issues.B.id]);

      const unresolved = await api.request('PUT', path, { body: { status: 'unresolved' } });
      expect(unresolved.body).toMatchObject({ status: 'unresolved', substatus: 'ongoing', statusDetails: {} });
    });

    it("answers 400 for invalid changes, with the aggregate's reason", async () => {
      const path = `/api/0/organizations/acme/issues/${issues.B.id}/`;
      const bogus = await api.request('PUT', path, { body: { status: 'bogus' } });
      expect(bogus.status).toBe(400);
      expect(bogus.body.detail).toContain('status');
      expect((await api.request('PUT', path, { body: { colour: 'red' } })).status).toBe(400);
      expect((await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreDuration: 'soon' } } })).status).toBe(400);

      const past = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreUntil: '2001-01-01T00:00:00Z' } } });
      expect(past.status).toBe(400);
      expect(past.body.detail).toBe('An issue can only be ignored until a time in the future');
      expect((await api.request('GET', path)).body.status).toBe('unresolved');
    });

    it('assigns to a user by id or e-mail, to a team, and unassigns', async () => {
      const path = `/api/0/organizations/acme/issues/${issues.C.id}/`;
      const byPrefixedId = await api.request('PUT', path, { body: { assignedTo: `user:${adminId}` } });
      expect(byPrefixedId.status).toBe(200);
      expect(byPrefixedId.body.assignedTo).toEqual({ type: 'user', id: adminId, name: expect.any(String), email: BOOTSTRAP.email });

      const byEmail = await api.request('PUT', path, { body: { assignedTo: carol.email.toUpperCase() } });
      expect(byEmail.body.assignedTo).toEqual({ type: 'user', id: carol.id, name: 'Carol', email: carol.email });
      expect(ids((await api.request('GET', '/api/0/organizations/acme/issues/?query=is:assigned')).body)).toEqual([issues.C.id]);

      const byBareId = await api.request('PUT', path, { body: { assignedTo: adminId } });
      expect(byBareId.body.assignedTo).toMatchObject({ type: 'user', id: adminId });
      expect(ids((await api.request('GET', '/api/0/organizations/acme/issues/?query=assigned:me')).body)).toEqual([issues.C.id]);

      const toTeam = await api.request('PUT', path, { body: { assignedTo: `team:${teamId}` } });
      expect(toTeam.body.assignedTo).toEqual({ type: 'team', id: teamId, name: 'acme' });

      const unassigned = await api.request('PUT', path, { body: { assignedTo: null } });
      expect(unassigned.body.assignedTo).toBeNull();
      expect(ids((await api.request('GET', '/api/0/organizations/acme/issues/?query=is:unassigned')).body)).toContain(issues.C.id);
      const emptyString = await api.request('PUT', path, { body: { assignedTo: '' } });
      expect(emptyString.status).toBe(200);

      const types = (await streamEvents(issues.C.id)).map((event) => event.event_type);
      expect(types.filter((type) => type === 'issues.IssueAssigned')).toHaveLength(4);
      expect(types.filter((type) => type === 'issues.IssueUnassigned')).toHaveLength(1);
    });

    it('answers 400 for an unknown assignee', async () => {
      const path = `/api/0/organizations/acme/issues/${issues.C.id}/`;
      for (const assignedTo of [outsiderEmail, 'user:999999', 'team:999999', 'nobody', 'team:acme']) {
        const response = await api.request('PUT', path, { body: { assignedTo } });
        expect({ assignedTo, status: response.status, body: response.body }).toEqual({ assignedTo, status: 400, body: { detail: 'Unknown assignee' } });
      }
    });

    it('records organization tokens as an application actor, and needs event:write', async () => {
      const path = `/api/0/organizations/acme/issues/${issues.C.id}/`;
      expect((await api.request('PUT', path, { token: readOnlyToken, body: { status: 'resolved' } })).status).toBe(403);
      expect((await api.request('GET', path, { token: readOnlyToken })).status).toBe(200);
      await seenReleases('web@1.0.0');
      const resolved = await api.request('PUT', path, { token: acmeOrgToken.token, body: { status: 'resolved', statusDetails: { inRelease: 'web@1.0.0' } } });
      expect(resolved.body).toMatchObject({ status: 'resolved', statusDetails: { inRelease: 'web@1.0.0' } });
      const last = (await streamEvents(issues.C.id)).at(-1)!;
      expect(last).toMatchObject({
        event_type: 'issues.IssueResolved',
        data: { inRelease: 'web@1.0.0', actor: { type: 'application', id: acmeOrgToken.id, name: 'API token' } },
      });
      await api.request('PUT', path, { body: { status: 'unresolved' } });
    });
  });

  describe('activity', () => {
    it("shows the issue's stream as Sentry's activity feed, newest first", async () => {
      const issue = (await record(ingested('fp-activity', 0)))[0];
      const path = `/api/0/organizations/acme/issues/${issue.issueId}/`;
      await api.request('PUT', path, { body: { assignedTo: carol.email } });
      const kept = await api.request('POST', `${path}comments/`, { body: { text: 'Looking into it' } });
      await api.request('PUT', `${path}comments/${kept.body.id}/`, { body: { text: 'Fixed in #12' } });
      const dropped = await api.request('POST', `${path}comments/`, { body: { text: 'wrong issue' } });
      await api.request('DELETE', `${path}comments/${dropped.body.id}/`);
      await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreCount: 100 } } });
      await seenReleases('web@1.9.0', 'web@2.0.0');
      await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inRelease: 'web@1.9.0' } } });
      await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inRelease: 'web@2.0.0' } } });
      await api.request('PUT', path, { body: { status: 'resolved', statusDetails: { inRelease: 'web@2.0.0' } } });
      // From an older release it is no regression; from the release it was resolved in, it is.
      await record(ingested('fp-activity', 4, { release: 'web@1.9.9' }));
      expect((await api.request('GET', path)).body.status).toBe('resolved');
      const regression = ingested('fp-activity', 5, { release: 'web@2.0.0' });
      await record(regression);
      const unassigned = await api.request('PUT', path, { body: { assignedTo: null } });

      const { body } = await api.request('GET', path);
      // The update answers the issue as its detail shows it.
      expect(unassigned.body.activity).toEqual(body.activity);
      const admin = { id: adminId, name: expect.any(String) };
      expect(body.activity).toEqual([
        { id: expect.any(String), type: 'unassigned', data: {}, dateCreated: expect.stringMatching(ISO_MS), user: admin },
        { id: expect.any(String), type: 'set_regression', data: { event_id: regression.eventId }, dateCreated: expect.stringMatching(ISO_MS), user: null },
        { id: expect.any(String), type: 'set_resolved_in_release', data: { version: 'web@2.0.0' }, dateCreated: expect.stringMatching(ISO_MS), user: admin },
        { id: expect.any(String), type: 'set_resolved_in_release', data: { version: 'web@1.9.0' }, dateCreated: expect.stringMatching(ISO_MS), user: admin },
        { id: expect.any(String), type: 'set_ignored', data: { ignoreCount: 100 }, dateCreated: expect.stringMatching(ISO_MS), user: admin },
        { id: kept.body.id, type: 'note', data: { text: 'Fixed in #12' }, dateCreated: kept.body.dateCreated, user: admin },
        {
          id: expect.any(String),
          type: 'assigned',
          dateCreated: expect.stringMatching(ISO_MS),
          user: admin,
          data: { assignee: carol.id, assigneeType: 'user', assigneeEmail: carol.email, assigneeName: expect.any(String) },
        },
        { id: expect.any(String), type: 'first_seen', data: {}, dateCreated: expect.stringMatching(ISO_MS), user: null },
      ]);
      // The list shows no activity, as Sentry's does not.
      expect(
        (await api.request('GET', '/api/0/organizations/acme/issues/?query=')).body.find((row: { id: string }) => row.id === issue.issueId).activity,
      ).toEqual([]);
    });
  });

  describe('tags', () => {
    it("answers the issue's tag keys with their top values, one key, and a key's values", async () => {
      const issue = await createIssue('fp-tags', 30);
      await record(
        ingested('fp-tags', 31, { user: 'ann', release: 'web@2.0.0' }),
        ingested('fp-tags', 32, { user: 'bob', release: 'web@2.0.0' }),
        ingested('fp-tags', 33, { user: 'ann', release: 'web@2.1.0' }),
      );
      const base = `/api/0/organizations/acme/issues/${issue.id}/tags/`;
      const all = await api.request('GET', base);
      expect(all.status).toBe(200);
      expect(all.body.map((tag: { key: string }) => tag.key)).toEqual(['browser', 'custom', 'environment', 'level', 'release', 'user']);
      const release = all.body.find((tag: { key: string }) => tag.key === 'release');
      expect(release).toEqual({
        key: 'release',
        name: 'Release',
        totalValues: 4,
        uniqueValues: 3,
        topValues: [
          { key: 'release', name: 'web@2.0.0', value: 'web@2.0.0', count: 2, firstSeen: at(31), lastSeen: at(32) },
          { key: 'release', name: 'web@2.1.0', value: 'web@2.1.0', count: 1, firstSeen: at(33), lastSeen: at(33) },
          { key: 'release', name: 'web@1.0.0', value: 'web@1.0.0', count: 1, firstSeen: at(30), lastSeen: at(30) },
        ],
      });

      const limited = await api.request('GET', `${base}?key=release&key=user&limit=1`);
      expect(limited.body.map((tag: { key: string; topValues: unknown[] }) => [tag.key, tag.topValues.length])).toEqual([
        ['release', 1],
        ['user', 1],
      ]);
      expect((await api.request('GET', `${base}user/`)).body).toMatchObject({ key: 'user', name: 'User', totalValues: 3, uniqueValues: 2 });
      expect((await api.request('GET', `${base}nope/`)).status).toBe(404);
      expect((await api.request('GET', `${base}?limit=0`)).status).toBe(400);

      const values = async (query = '') => (await api.request('GET', `${base}release/values/${query}`)).body.map((row: { value: string }) => row.value);
      // As Sentry sorts them: every order descending.
      expect(await values()).toEqual(['web@2.1.0', 'web@2.0.0', 'web@1.0.0']);
      expect(await values('?sort=date')).toEqual(['web@2.1.0', 'web@2.0.0', 'web@1.0.0']);
      expect(await values('?sort=age')).toEqual(['web@2.1.0', 'web@2.0.0', 'web@1.0.0']);
      expect(await values('?sort=count')).toEqual(['web@2.0.0', 'web@1.0.0', 'web@2.1.0']);
      expect(await values('?sort=-count')).toEqual(['web@2.0.0', 'web@1.0.0', 'web@2.1.0']);
      const page = await api.request('GET', `${base}release/values/?per_page=2`);
      expect(page.body).toHaveLength(2);
      expect(page.headers.get('link')).toContain('rel="next"; results="true"');
      const bad = await api.request('GET', `${base}release/values/?sort=random`);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/sort/);
      expect((await api.request('GET', `${base}nope/values/`)).status).toBe(404);

      const detail = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body;
      expect(detail.tags.map((tag: { name: string }) => tag.name)).toEqual(['Browser', 'Custom', 'Environment', 'Level', 'Release', 'User']);
      expect(detail.tags[0]).toEqual({ key: 'browser', name: 'Browser', totalValues: 4, uniqueValues: 1 });
      await api.request('DELETE', `/api/0/organizations/acme/issues/${issue.id}/`);
    });

    it("answers 404 for another organization's issue", async () => {
      const response = await api.request('GET', `/api/0/organizations/initech/issues/${issues.A.id}/tags/`, { token: outsiderToken });
      expect(response.status).toBe(404);
    });
  });

  describe('comments', () => {
    it('adds, lists, edits and deletes comments through the aggregate', async () => {
      const base = `/api/0/organizations/acme/issues/${issues.B.id}/comments/`;
      const added = await api.request('POST', base, { body: { text: 'Looking into it' } });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        id: expect.any(String),
        type: 'note',
        data: { text: 'Looking into it' },
        dateCreated: expect.stringMatching(ISO_MS),
        user: { id: adminId, name: expect.any(String) },
        actor: { type: 'user', id: adminId, name: expect.any(String) },
      });
      const second = await api.request('POST', base, { body: { text: 'Second' } });
      expect((await api.request('POST', base, { body: { text: 'nul \u0000 inside' } })).status).toBe(400);

      const listed = await api.request('GET', base);
      expect(listed.body.map((comment: { id: string }) => comment.id)).toEqual([second.body.id, added.body.id]);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.id}/`)).body.numComments).toBe(2);

      const edited = await api.request('PUT', `${base}${added.body.id}/`, { body: { text: 'Fixed in #12' } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ id: added.body.id, data: { text: 'Fixed in #12' } });

      // Only the author may change or delete a comment.
      expect((await api.request('PUT', `${base}${added.body.id}/`, { token: acmeOrgToken.token, body: { text: 'hijack' } })).status).toBe(403);
      expect((await api.request('DELETE', `${base}${added.body.id}/`, { token: acmeOrgToken.token })).status).toBe(403);

      expect((await api.request('POST', base, { body: { text: '   ' } })).status).toBe(400);
      expect((await api.request('POST', base, { body: {} })).status).toBe(400);

      expect((await api.request('DELETE', `${base}${added.body.id}/`)).status).toBe(204);
      expect((await api.request('DELETE', `${base}${added.body.id}/`)).status).toBe(404);
      expect((await api.request('PUT', `${base}does-not-exist/`, { body: { text: 'x' } })).status).toBe(404);
      expect((await api.request('GET', base)).body.map((comment: { id: string }) => comment.id)).toEqual([second.body.id]);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.id}/`)).body.numComments).toBe(1);

      const types = (await streamEvents(issues.B.id)).map((event) => event.event_type);
      expect(types.filter((type) => type.startsWith('issues.Comment'))).toEqual([
        'issues.CommentAdded',
        'issues.CommentAdded',
        'issues.CommentEdited',
        'issues.CommentDeleted',
      ]);
    });
  });

  describe('notes and activities', () => {
    it("answers Sentry's notes/ as the same comments and activities/ as the detail's activity feed", async () => {
      const issue = `/api/0/organizations/acme/issues/${issues.B.id}/`;
      const note = await api.request('POST', `${issue}notes/`, { body: { text: 'Seen in checkout' } });
      expect(note.status).toBe(201);
      expect(note.body).toMatchObject({ type: 'note', data: { text: 'Seen in checkout' }, user: { id: adminId } });
      expect((await api.request('GET', `${issue}comments/`)).body[0].id).toBe(note.body.id);
      expect((await api.request('GET', `${issue}notes/`)).body).toEqual((await api.request('GET', `${issue}comments/`)).body);

      const edited = await api.request('PUT', `${issue}notes/${note.body.id}/`, { body: { text: 'Seen in checkout and cart' } });
      expect(edited.body).toMatchObject({ id: note.body.id, data: { text: 'Seen in checkout and cart' } });
      expect((await api.request('PUT', `${issue}notes/${note.body.id}/`, { body: { text: ' ' } })).status).toBe(400);

      const activities = await api.request('GET', `${issue}activities/`);
      expect(activities.status).toBe(200);
      expect(activities.body).toEqual({ activity: (await api.request('GET', issue)).body.activity });
      expect(activities.body.activity[0]).toMatchObject({ id: note.body.id, type: 'note', data: { text: 'Seen in checkout and cart' } });
      expect(activities.body.activity.at(-1)).toMatchObject({ type: 'first_seen' });

      expect((await api.request('DELETE', `${issue}notes/${note.body.id}/`)).status).toBe(204);
      expect((await api.request('GET', `${issue}activities/`)).body.activity.map((entry: { id: string }) => entry.id)).not.toContain(note.body.id);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/999999999/activities/`)).status).toBe(404);
    });
  });

  describe('events', () => {
    it("lists an issue's events newest first, paginated", async () => {
      const all = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/`);
      expect(all.status).toBe(200);
      expect(all.body).toHaveLength(5);
      expect(all.body.map((event: { dateCreated: string }) => event.dateCreated)).toEqual([at(20), at(4), at(3), at(2), at(1)]);
      expect(all.body[0]).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        'event.type': 'error',
        groupID: issues.A.id,
        projectID: projectId,
        title: 'TypeError: fp-a is undefined',
        culprit: 'app/fp-a.js in render',
        location: null,
        platform: 'javascript',
        crashFile: null,
        user: { id: 'u9', email: 'u9@example.com' },
        metadata: { type: 'TypeError', value: 'fp-a is undefined' },
      });
      expect(all.body[0].eventID).toBe(all.body[0].id);
      const page = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/?per_page=2`);
      expect(page.body).toHaveLength(2);
      expect(page.headers.get('link')).toContain('rel="next"; results="true"');
    });

    it('answers the latest and oldest event in full', async () => {
      const all = (await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/`)).body;
      const latest = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/latest/`);
      expect(latest.status).toBe(200);
      expect(latest.body).toMatchObject({ eventID: all[0].id, groupID: issues.A.id, nextEventID: null, previousEventID: all[1].id });
      const oldest = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/oldest/`);
      expect(oldest.body).toMatchObject({ eventID: all[4].id, previousEventID: null, nextEventID: all[3].id, dateCreated: at(1) });
      const byId = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/${all[2].id}/`);
      expect(byId.body.eventID).toBe(all[2].id);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.B.id}/events/${all[2].id}/`)).status).toBe(404);
    });

    it('answers a project event with entries built from the stored event', async () => {
      const [latest] = (await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/`)).body;
      const response = await api.request('GET', `/api/0/projects/acme/web/events/${latest.id}/`);
      expect(response.status).toBe(200);
      const event = response.body;
      expect(event).toMatchObject({
        id: latest.id,
        eventID: latest.id,
        groupID: issues.A.id,
        projectID: projectId,
        title: 'TypeError: fp-a is undefined',
        platform: 'javascript',
        type: 'error',
        dateCreated: at(20),
        dateReceived: at(20),
        culprit: 'app/fp-a.js in render',
        location: null,
        contexts: { browser: { name: 'Chrome', version: '120' } },
        sdk: { name: 'sentry.javascript.browser', version: '8.0.0' },
        metadata: { type: 'TypeError', value: 'fp-a is undefined', title: 'TypeError: fp-a is undefined' },
        release: { version: 'web@1.0.0' },
        errors: [],
      });
      expect(event.tags).toEqual(
        expect.arrayContaining([
          { key: 'browser', value: 'Chrome' },
          { key: 'custom', value: 'yes' },
          { key: 'level', value: 'error' },
          { key: 'environment', value: 'production' },
          { key: 'release', value: 'web@1.0.0' },
          { key: 'user', value: 'id:u9' },
          { key: 'handled', value: 'no' },
        ]),
      );
      const keys = event.tags.map((tag: { key: string }) => tag.key);
      expect(keys).toEqual([...keys].sort());
      expect(event.entries.map((entry: { type: string }) => entry.type)).toEqual(['exception', 'request']);
      const exception = event.entries[0].data.values[0];
      expect(exception).toMatchObject({ type: 'TypeError', value: 'fp-a is undefined', mechanism: { type: 'onerror', handled: false } });
      expect(exception.stacktrace.frames[1]).toMatchObject({
        filename: 'app/fp-a.js',
        absPath: 'https://app.example.com/fp-a.js',
        function: 'render',
        lineNo: 12,
        colNo: 7,
        inApp: true,
        context: [
          [10, 'function render() {'],
          [11, '  const x = undefined;'],
          [12, '  return x.y;'],
          [13, '}'],
        ],
      });
      expect(event.entries[1].data).toMatchObject({
        url: 'https://app.example.com/page',
        method: 'GET',
        headers: [['User-Agent', 'jest']],
        query: [['q', '1']],
      });

      const [message] = (await api.request('GET', `/api/0/organizations/acme/issues/${issues.C.id}/events/`)).body;
      const messageEvent = (await api.request('GET', `/api/0/projects/acme/web/events/${message.id}/`)).body;
      expect(messageEvent.entries.map((entry: { type: string }) => entry.type)).toEqual(['message', 'request']);
      expect(messageEvent.entries[0].data).toMatchObject({ formatted: 'Payment failed' });
      expect(messageEvent.message).toBe('Payment failed');

      expect((await api.request('GET', `/api/0/projects/acme/web/events/${'0'.repeat(31)}1/`)).status).toBe(404);
      expect((await api.request('GET', '/api/0/projects/acme/web/events/not-an-id/')).status).toBe(404);
      const projectList = await api.request('GET', '/api/0/projects/acme/web/events/?per_page=3');
      expect(projectList.body.map((item: { id: string }) => item.id)[0]).toBe(latest.id);
    });
  });

  describe('bulk changes and deletion', () => {
    it('updates several issues at once', async () => {
      const [d, e] = [await createIssue('fp-d'), await createIssue('fp-e')];
      const resolved = await api.request('PUT', `/api/0/projects/acme/web/issues/?id=${d.id}&id=${e.id}`, { body: { status: 'resolved' } });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ status: 'resolved', statusDetails: {}, isPublic: false });
      for (const issue of [d, e]) expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body.status).toBe('resolved');

      const assigned = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${d.id}&id=${e.id}`, { body: { assignedTo: carol.email } });
      expect(assigned.status).toBe(200);
      expect(assigned.body.assignedTo).toEqual({ type: 'user', id: carol.id, name: 'Carol', email: carol.email });
      for (const issue of [d, e]) {
        expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body.assignedTo).toMatchObject({ id: carol.id });
      }

      expect((await api.request('PUT', '/api/0/organizations/acme/issues/', { body: { status: 'resolved' } })).status).toBe(400);
      expect((await api.request('PUT', '/api/0/organizations/acme/issues/?id=abc', { body: { status: 'resolved' } })).status).toBe(400);
      // All or nothing: an id outside the organization (or project) is 404 and nothing changes.
      const mixed = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${d.id}&id=999999`, { body: { status: 'unresolved' } });
      expect(mixed.status).toBe(404);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${d.id}/`)).body.status).toBe('resolved');
    });

    it('deletes an issue with its events (202, then 404)', async () => {
      const sent = ingested('fp-doomed', 30);
      const [{ issueId: doomedId }] = await record(sent);
      const doomed = { id: doomedId };
      const eventId = sent.eventId;
      // A retry of a stored id stores and counts nothing more.
      expect(await record(sent)).toEqual([]);
      expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${doomed.id}/`, { token: readOnlyToken })).status).toBe(403);
      const deleted = await api.request('DELETE', `/api/0/organizations/acme/issues/${doomed.id}/`);
      expect(deleted.status).toBe(202);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${doomed.id}/`)).status).toBe(404);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${doomed.id}/events/`)).status).toBe(404);
      expect((await api.request('GET', `/api/0/projects/acme/web/events/${eventId}/`)).status).toBe(404);
      expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${doomed.id}/`)).status).toBe(404);
      expect(await database.query(`SELECT 1 FROM issues.error_events WHERE issue_id = $1`, [doomed.id])).toEqual([]);
      // Its id is free again: the same event sent after the deletion is stored, not taken for a retry.
      const [again] = await record(sent);
      expect(again.issueId).not.toBe(doomed.id);
      expect(await database.query(`SELECT 1 FROM issues.error_events WHERE event_id = $1`, [eventId])).toHaveLength(1);

      const bulk = [await createIssue('fp-bulk-1'), await createIssue('fp-bulk-2')];
      const response = await api.request('DELETE', `/api/0/projects/acme/web/issues/?id=${bulk[0].id}&id=${bulk[1].id}`);
      expect(response.status).toBe(204);
      for (const issue of bulk) expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).status).toBe(404);
    });
  });

  describe('tenancy', () => {
    it('answers 404 to another organization on every issue and event route', async () => {
      const [event] = (await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/events/`)).body;
      const comment = await api.request('POST', `/api/0/organizations/acme/issues/${issues.A.id}/comments/`, { body: { text: 'private' } });
      const before = await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/`);
      const streamBefore = await streamEvents(issues.A.id);

      const routes: Array<[string, string, unknown?]> = [];
      for (const org of ['acme', organizationId, 'initech']) {
        const project = org === 'initech' ? projectId : 'web';
        const issue = `/api/0/organizations/${org}/issues/${issues.A.id}`;
        routes.push(
          ['GET', `/api/0/projects/${org}/${project}/issues/`],
          ['PUT', `/api/0/projects/${org}/${project}/issues/?id=${issues.A.id}`, { status: 'resolved' }],
          ['DELETE', `/api/0/projects/${org}/${project}/issues/?id=${issues.A.id}`],
          ['PUT', `/api/0/organizations/${org}/issues/?id=${issues.A.id}`, { status: 'resolved' }],
          ['DELETE', `/api/0/organizations/${org}/issues/?id=${issues.A.id}`],
          ['GET', `${issue}/`],
          ['GET', `/api/0/organizations/${org}/issues/${issues.A.shortId}/`],
          ['PUT', `${issue}/`, { status: 'resolved' }],
          ['DELETE', `${issue}/`],
          ['GET', `${issue}/comments/`],
          ['POST', `${issue}/comments/`, { text: 'intrusion' }],
          ['PUT', `${issue}/comments/${comment.body.id}/`, { text: 'intrusion' }],
          ['DELETE', `${issue}/comments/${comment.body.id}/`],
          ['GET', `${issue}/notes/`],
          ['POST', `${issue}/notes/`, { text: 'intrusion' }],
          ['PUT', `${issue}/notes/${comment.body.id}/`, { text: 'intrusion' }],
          ['DELETE', `${issue}/notes/${comment.body.id}/`],
          ['GET', `${issue}/activities/`],
          ['GET', `${issue}/events/`],
          ['GET', `${issue}/events/latest/`],
          ['GET', `${issue}/events/oldest/`],
          ['GET', `${issue}/events/${event.id}/`],
          ['GET', `/api/0/projects/${org}/${project}/events/`],
          ['GET', `/api/0/projects/${org}/${project}/events/${event.id}/`],
        );
      }
      for (const [method, path, body] of routes) {
        const response = await api.request(method, path, { token: outsiderToken, body });
        expect({ method, path, status: response.status, body: response.body }).toEqual({ method, path, status: 404, body: NOT_FOUND });
      }

      // The outsider's own lists do not show acme's issues, whatever the project filter says.
      const own = await api.request('GET', `/api/0/organizations/initech/issues/?project=${projectId}&query=`, { token: outsiderToken });
      expect(own.status).toBe(200);
      expect(own.body).toEqual([]);

      expect((await api.request('GET', `/api/0/organizations/acme/issues/${issues.A.id}/`)).body).toEqual(before.body);
      expect(await streamEvents(issues.A.id)).toEqual(streamBefore);
    });
  });

  describe('ingestion rules', () => {
    it('brings an issue ignored until N more events back on the Nth, counting from the ignore', async () => {
      const issue = await createIssue('fp-count');
      await record(ingested('fp-count', 1));
      await record(ingested('fp-count', 2));
      const path = `/api/0/organizations/acme/issues/${issue.id}/`;
      await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreCount: 2 } } });
      const now = () => ({ ...ingested('fp-count', 0), receivedAt: new Date(Date.now() + 1000).toISOString() });
      await record(now());
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'ignored', count: '4' });
      // Ignoring again with the same count starts it again, as in Sentry.
      expect((await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreCount: 2 } } })).status).toBe(200);
      await record(now());
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'ignored', count: '5' });
      await record(now());
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'unresolved', substatus: 'escalating' });
      expect((await streamEvents(issue.id)).at(-1)).toMatchObject({ event_type: 'issues.IssueUnresolved', data: { reason: 'ignore_expired' } });
      expect(ids((await api.request('GET', '/api/0/organizations/acme/issues/?query=is:escalating')).body)).toContain(issue.id);
      expect((await api.request('GET', path)).body.activity[0]).toMatchObject({ type: 'set_escalating', user: null });
    });

    it('brings an issue ignored until N more users back when the Nth user it has not seen is affected', async () => {
      const issue = (await record(ingested('fp-users', 0, { user: 'u1' })))[0];
      const path = `/api/0/organizations/acme/issues/${issue.issueId}/`;
      const ignored = await api.request('PUT', path, { body: { status: 'ignored', statusDetails: { ignoreUserCount: 2, ignoreUserWindow: 60 } } });
      expect(ignored.body).toMatchObject({ status: 'ignored', substatus: 'archived_until_condition_met', statusDetails: { ignoreUserCount: 2 } });
      expect((await api.request('GET', path)).body.statusDetails).toEqual({ ignoreUserCount: 2 });

      await record(ingested('fp-users', 1, { user: 'u1' }), ingested('fp-users', 1), ingested('fp-users', 1, { user: 'u2' }));
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'ignored', userCount: 2 });
      const third = ingested('fp-users', 2, { user: 'u3' });
      await record(ingested('fp-users', 2, { user: 'u2' }), third, ingested('fp-users', 2, { user: 'u4' }));
      expect((await api.request('GET', path)).body).toMatchObject({ status: 'unresolved', userCount: 4 });
      expect((await streamEvents(issue.issueId)).at(-1)).toMatchObject({
        event_type: 'issues.IssueUnresolved',
        data: { reason: 'ignore_expired', eventId: third.eventId },
      });
    });

    it('prunes stored events past retention and keeps the issue', async () => {
      const issue = await createIssue('fp-old');
      await database.execute(`UPDATE issues.error_events SET received_at = now() - interval '91 days' WHERE issue_id = $1`, [issue.id]);
      expect((await api.app.get(RetentionSchedule).pruneAll())['issues.events']).toBeGreaterThanOrEqual(1);
      const events = await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/`);
      expect(events.body).toEqual([]);
      expect((await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).status).toBe(200);
    });
  });
});

/**
 * Graph counts at the edges of the UTC day, with the application's clock pinned: the graphs end
 * with the bucket holding "now", and retention keeps hourly counts two days and daily ones as long
 * as the events, whatever the hour the suite runs at.
 */
describe.each(['00:30', '23:30'])('issue graph counts with the clock at %s UTC', (time) => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const now = new Date(`2026-03-10T${time}:00.000Z`);
  const hourOf = (ms: number) => new Date(ms - (ms % HOUR)).toISOString();
  const dayOf = (ms: number) => new Date(ms - (ms % DAY)).toISOString();
  let api: TestApp;
  let database: Database;
  let issueId: string;

  beforeAll(async () => {
    api = await startTestApp({}, { clock: new FixedClock(now) });
    database = api.app.get(Database);
    const project = (await api.request('GET', '/api/0/projects/acme/web/')).body;
    const [key] = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body;
    const sent = await fetch(`${api.baseUrl}/api/${project.id}/store/?sentry_key=${key.public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event_id: randomUUID().replace(/-/g, ''),
        level: 'error',
        platform: 'node',
        message: 'Late',
        timestamp: (now.getTime() - 10 * MINUTE) / 1000,
      }),
    });
    expect(sent.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    [{ id: issueId }] = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=')).body;
  });

  afterAll(async () => {
    await api?.close();
  });

  it("graphs the event in the last bucket of the issue's and the project's graphs", async () => {
    const { stats } = (await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/`)).body;
    expect(stats['24h'].at(-1)).toEqual([Date.parse(hourOf(now.getTime())) / 1000, 1]);
    expect(stats['30d'].at(-1)).toEqual([Date.parse(dayOf(now.getTime())) / 1000, 1]);
    const projectStats = (await api.request('GET', '/api/0/projects/acme/web/stats/?stat=received')).body;
    expect(projectStats.at(-1)).toEqual([Date.parse(hourOf(now.getTime())) / 1000, 1]);
  });

  it('prunes hourly graph counts after two days and daily ones with the events', async () => {
    const at = now.getTime();
    const old = { hourly3d: hourOf(at - 3 * DAY), hourly1d: hourOf(at - DAY), daily3d: dayOf(at - 3 * DAY), daily91d: dayOf(at - 91 * DAY) };
    await database.execute(
      `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) VALUES ($1, '1h', $2, 1), ($1, '1h', $3, 1), ($1, '1d', $4, 1), ($1, '1d', $5, 1)`,
      [issueId, old.hourly3d, old.hourly1d, old.daily3d, old.daily91d],
    );
    await api.app.get(RetentionSchedule).pruneAll();
    const left = await database.query<{ resolution: string; bucket: Date }>(
      `SELECT resolution, bucket FROM issues.issue_stats WHERE issue_id = $1 ORDER BY resolution, bucket`,
      [issueId],
    );
    expect(left.map(({ resolution, bucket }) => [resolution, bucket.toISOString()])).toEqual([
      ['1d', old.daily3d],
      ['1d', dayOf(at)],
      ['1h', old.hourly1d],
      ['1h', hourOf(at)],
    ]);
  });
});
