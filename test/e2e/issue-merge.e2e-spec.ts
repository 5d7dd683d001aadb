import { randomUUID } from 'node:crypto';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const MINUTE = 60_000;

/**
 * Merging issues over HTTP (Sentry's bulk `PUT …/issues/?id=…` with `{"merge": 1}`), the merged
 * ids answering as the primary, its fingerprint hashes, and deleting issues. Events are made the way
 * the ingest worker groups them (IssueIngestion in a transaction).
 */
describe('issue merge API', () => {
  let api: TestApp;
  let database: Database;
  let organizationId: string;
  let projectId: string;
  let otherProjectId: string;
  let readOnlyToken: string;
  let outsiderToken: string;
  const T0 = Date.now() - 120 * MINUTE;
  const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

  function ingested(
    fingerprint: string,
    minutes: number,
    options: { user?: string; release?: string; project?: string; title?: string; culprit?: string } = {},
  ): IngestedEvent {
    const eventId = randomUUID().replace(/-/g, '');
    const occurredAt = at(minutes);
    const title = options.title ?? `TypeError: ${fingerprint} is undefined`;
    const release = options.release ?? 'web@1.0.0';
    return {
      projectId: options.project ?? projectId,
      projectSlug: BOOTSTRAP.project,
      organizationId,
      eventId,
      fingerprintHash: fingerprint,
      title,
      culprit: options.culprit ?? `app/${fingerprint}.js in render`,
      level: 'error',
      platform: 'javascript',
      occurredAt,
      receivedAt: occurredAt,
      userHash: options.user,
      release,
      tags: [['level', 'error'], ['release', release], ...(options.user ? [['user', `id:${options.user}`] as const] : [])],
      data: { eventId, timestamp: occurredAt, level: 'error', platform: 'javascript', message: title, title, release, exceptions: [] },
    };
  }

  async function record(...events: IngestedEvent[]) {
    return database.transaction((tx) => api.app.get(IssueIngestion).recordEvents(tx, events));
  }

  async function issueOf(fingerprint: string, project = projectId): Promise<string> {
    const [row] = await database.query<{ id: string }>(`SELECT issue_id::text AS id FROM issues.issue_hashes WHERE project_id = $1 AND hash = $2`, [
      project,
      fingerprint,
    ]);
    return row.id;
  }

  const get = (path: string) => api.request('GET', `/api/0/organizations/acme/issues/${path}`);

  beforeAll(async () => {
    api = await startTestApp();
    database = api.app.get(Database);
    organizationId = (await api.request('GET', '/api/0/organizations/acme/')).body.id;
    projectId = (await api.request('GET', '/api/0/projects/acme/web/')).body.id;
    otherProjectId = (await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile', platform: 'javascript' } })).body
      .id;
    readOnlyToken = (await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'ro', scopes: ['event:read', 'event:write'] } }))
      .body.token;
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    outsiderToken = (
      await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
        body: { name: 'all', scopes: ['org:admin', 'project:admin', 'event:admin'] },
      })
    ).body.token;
  }, 180_000);

  afterAll(async () => {
    await api?.close();
  });

  it('merges into the issue with the most events, moving events, counts, tags, users and fingerprints, and redirects the merged ids', async () => {
    await record(
      ingested('m-a', 10, { user: 'u1', release: 'web@1.0.0' }),
      ingested('m-a', 11, { user: 'u1', release: 'web@1.0.0' }),
      ingested('m-a', 12, { user: 'u2', release: 'web@1.0.0' }),
      ingested('m-b', 5, { user: 'u3', release: 'web@0.9.0' }),
      ingested('m-c', 20, { user: 'u1', release: 'web@2.0.0' }),
      ingested('m-c', 21, { user: 'u4', release: 'web@2.0.0' }),
    );
    const [a, b, c] = [await issueOf('m-a'), await issueOf('m-b'), await issueOf('m-c')];

    const merged = await api.request('PUT', `/api/0/projects/acme/web/issues/?id=${b}&id=${a}&id=${c}`, { body: { merge: 1 } });
    expect(merged.status).toBe(200);
    expect(merged.body.merge).toEqual({ parent: a, children: [c, b] });

    const primary = (await get(`${a}/`)).body;
    expect(primary).toMatchObject({ id: a, count: '6', userCount: 4, firstSeen: new Date(at(5)).toISOString(), lastSeen: new Date(at(21)).toISOString() });
    expect(primary.firstRelease?.version).toBe('web@0.9.0');
    expect(primary.lastRelease?.version).toBe('web@2.0.0');
    expect(primary.activity[0]).toMatchObject({ type: 'merge', data: { issues: [{ id: c }, { id: b }] }, user: { name: expect.any(String) } });
    const release = (await get(`${a}/tags/release/values/?sort=count`)).body;
    expect(release.map((value: { value: string; count: number }) => [value.value, value.count])).toEqual([
      ['web@1.0.0', 3],
      ['web@2.0.0', 2],
      ['web@0.9.0', 1],
    ]);
    expect((await get(`${a}/events/`)).body).toHaveLength(6);

    // The merged ids answer as the primary, every sub-resource too.
    for (const child of [b, c]) {
      const detail = await get(`${child}/`);
      expect(detail.status).toBe(200);
      expect(detail.body.id).toBe(a);
      expect((await get(`${child}/events/`)).body).toHaveLength(6);
    }
    const list = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=')).body.map((issue: { id: string }) => issue.id);
    expect(list).toContain(a);
    expect(list).not.toContain(b);

    // Each stream records its side of the merge.
    const types = async (id: string) =>
      (
        await database.query<{ event_type: string }>(`SELECT event_type FROM event_store.stream_events WHERE stream_id = $1 ORDER BY version`, [`issue-${id}`])
      ).map((row) => row.event_type);
    expect(await types(a)).toContain('issues.IssuesMerged');
    expect(await types(b)).toEqual(['issues.IssueCreated', 'issues.IssueMergedInto']);

    // A later event with a merged fingerprint lands in the primary.
    const [later] = await record(ingested('m-b', 30, { user: 'u5' }));
    expect(later.issueId).toBe(a);
    expect((await get(`${a}/`)).body).toMatchObject({ count: '7', userCount: 5 });

    // The primary's hashes, each with its newest event.
    const hashes = await get(`${a}/hashes/`);
    expect(hashes.status).toBe(200);
    expect(hashes.body.map((hash: { id: string }) => hash.id).sort()).toEqual(['m-a', 'm-b', 'm-c']);
    const mB = hashes.body.find((hash: { id: string }) => hash.id === 'm-b');
    expect(mB.latestEvent).toMatchObject({ eventID: later.eventId, groupID: a });
    expect((await get(`${b}/hashes/`)).body).toHaveLength(3);
  });

  it('merges again into a bigger issue, keeping the earlier redirects, and deleting the primary ends them', async () => {
    await record(
      ingested('r-a', 1),
      ingested('r-a', 2),
      ingested('r-b', 3),
      ingested('r-big', 4),
      ingested('r-big', 5),
      ingested('r-big', 6),
      ingested('r-big', 7),
    );
    const [ra, rb, big] = [await issueOf('r-a'), await issueOf('r-b'), await issueOf('r-big')];
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/?id=${ra}&id=${rb}`, { body: { merge: true } })).body.merge).toEqual({
      parent: ra,
      children: [rb],
    });
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/?id=${ra}&id=${big}`, { body: { merge: '1' } })).body.merge).toEqual({
      parent: big,
      children: [ra],
    });
    expect((await get(`${rb}/`)).body).toMatchObject({ id: big, count: '7' });
    expect((await get(`${ra}/`)).body.id).toBe(big);

    expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${rb}/`, { token: readOnlyToken })).status).toBe(403);
    expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${rb}/`)).status).toBe(202);
    for (const id of [ra, rb, big]) expect((await get(`${id}/`)).status).toBe(404);
    expect(await database.query(`SELECT 1 FROM issues.issue_hashes WHERE hash IN ('r-a', 'r-b', 'r-big')`)).toEqual([]);
    // The fingerprints are free again: a new event makes a new issue.
    const [fresh] = await record(ingested('r-b', 8));
    expect(fresh.isNewIssue).toBe(true);
  });

  it('refuses merges across projects or tenants and without event:write, changing nothing', async () => {
    await record(ingested('x-a', 1), ingested('x-other', 2, { project: otherProjectId }), ingested('x-b', 3));
    const [xa, xb, other] = [await issueOf('x-a'), await issueOf('x-b'), await issueOf('x-other', otherProjectId)];

    const across = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${xa}&id=${other}`, { body: { merge: 1 } });
    expect(across.status).toBe(400);
    expect(across.body).toEqual({ detail: 'Merging across multiple projects is not supported' });
    // Through a project's endpoint, an issue of another project is not found.
    expect((await api.request('PUT', `/api/0/projects/acme/web/issues/?id=${xa}&id=${other}`, { body: { merge: 1 } })).status).toBe(404);
    expect((await api.request('PUT', `/api/0/organizations/initech/issues/?id=${xa}&id=${xb}`, { token: outsiderToken, body: { merge: 1 } })).status).toBe(404);
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/?id=${xa}&id=${xb}`, { body: { merge: 'yes' } })).status).toBe(400);
    const readOnly = (await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'read', scopes: ['event:read'] } })).body.token;
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/?id=${xa}&id=${xb}`, { token: readOnly, body: { merge: 1 } })).status).toBe(403);

    // One issue is no merge: Sentry answers without one.
    const single = await api.request('PUT', `/api/0/organizations/acme/issues/?id=${xa}`, { body: { merge: 1 } });
    expect(single.status).toBe(200);
    expect(single.body.merge).toBeUndefined();

    for (const id of [xa, xb, other]) expect((await api.request('GET', `/api/0/organizations/acme/issues/${id}/`)).body.id).toBe(id);
    expect(await database.query(`SELECT 1 FROM issues.issue_redirects WHERE previous_issue_id = ANY($1::bigint[])`, [[xa, xb, other]])).toEqual([]);
  });

  it('unmerges fingerprints into one new issue (DELETE or PUT …/hashes/?id=), answering 202 and naming it, and refuses what cannot be unmerged', async () => {
    await record(
      ingested('n-a', 1, { user: 'n1' }),
      ingested('n-a', 2, { user: 'n1' }),
      ingested('n-a', 3, { user: 'n2' }),
      ingested('n-b', 4, { user: 'n2' }),
      ingested('n-c', 5, { user: 'n3' }),
    );
    const [na, nb, nc] = [await issueOf('n-a'), await issueOf('n-b'), await issueOf('n-c')];
    await api.request('PUT', `/api/0/organizations/acme/issues/?id=${na}&id=${nb}&id=${nc}`, { body: { merge: 1 } });
    const hashes = (path: string) => api.request('DELETE', `/api/0/organizations/acme/issues/${na}/hashes/${path}`);

    expect((await hashes('')).body).toEqual({ detail: 'Name the hashes to unmerge with ?id=.' });
    expect((await hashes('?id=n-a&id=n-b&id=n-c')).body).toEqual({ detail: 'An issue keeps at least one of its hashes: unmerge fewer' });
    expect(await hashes('?id=unknown')).toMatchObject({ status: 400, body: { detail: 'unknown is not a hash of this issue' } });
    expect(await hashes('?id=x-a')).toMatchObject({ status: 400 });
    const readOnly = (await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'reader', scopes: ['event:read'] } })).body.token;
    expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${na}/hashes/?id=n-b`, { token: readOnly })).status).toBe(403);
    expect((await api.request('DELETE', `/api/0/organizations/initech/issues/${na}/hashes/?id=n-b`, { token: outsiderToken })).status).toBe(404);
    expect((await get(`${na}/`)).body).toMatchObject({ count: '5', userCount: 3 });

    const unmerged = await hashes('?id=n-b&id=n-c');
    expect(unmerged.status).toBe(202);
    expect(unmerged.body).toEqual({ id: expect.any(String), shortId: expect.stringMatching(/^WEB-\d+$/) });
    const created = unmerged.body.id;
    expect((await get(`${na}/`)).body).toMatchObject({ id: na, count: '3', userCount: 2, lastSeen: new Date(at(3)).toISOString() });
    expect((await get(`${created}/`)).body).toMatchObject({
      id: created,
      shortId: unmerged.body.shortId,
      count: '2',
      userCount: 2,
      firstSeen: new Date(at(4)).toISOString(),
      lastSeen: new Date(at(5)).toISOString(),
    });
    expect((await get(`${created}/hashes/`)).body.map((hash: { id: string }) => hash.id)).toEqual(['n-b', 'n-c']);
    expect((await get(`${na}/hashes/`)).body.map((hash: { id: string }) => hash.id)).toEqual(['n-a']);
    expect((await get(`${na}/activities/`)).body.activity[0]).toMatchObject({
      type: 'unmerge_source',
      data: { destination_id: created, fingerprints: ['n-b', 'n-c'] },
    });
    expect((await get(`${created}/activities/`)).body.activity.map((entry: { type: string }) => entry.type)).toEqual(['unmerge_destination', 'first_seen']);

    // Sentry's web app sends PUT: the same unmerge.
    const again = await api.request('PUT', `/api/0/organizations/acme/issues/${created}/hashes/?id=n-c`);
    expect(again.status).toBe(202);
    expect((await get(`${again.body.id}/`)).body).toMatchObject({ count: '1', userCount: 1 });
    const [later] = await record(ingested('n-c', 30));
    expect(later.issueId).toBe(again.body.id);
  });

  it('answers similar issues: the same title or culprit in the same project, newest first, bounded', async () => {
    const title = 'RangeError: Invalid time value';
    await record(
      ingested('s-a', 1, { title, culprit: 'app/date.js in format' }),
      ingested('s-b', 2, { title, culprit: 'app/other.js in run' }),
      ingested('s-c', 3, { title: 'TypeError: x', culprit: 'app/date.js in format' }),
      ingested('s-d', 4, { title: 'TypeError: y', culprit: 'app/unrelated.js' }),
      ingested('s-e', 5, { title, project: otherProjectId }),
    );
    const [sa, sb, sc] = [await issueOf('s-a'), await issueOf('s-b'), await issueOf('s-c')];
    const similar = await get(`${sa}/similar/`);
    expect(similar.status).toBe(200);
    expect(similar.body.map(([issue, scores]: [{ id: string }, Record<string, number>]) => [issue.id, scores])).toEqual([
      [sc, { title: 0, culprit: 1 }],
      [sb, { title: 1, culprit: 0 }],
    ]);
    expect(similar.body[0][0]).toMatchObject({ shortId: expect.any(String), project: { slug: 'web' } });
    expect((await get(`${sa}/similar/?limit=1`)).body).toHaveLength(1);
    expect((await get(`${sa}/similar/?limit=0`)).status).toBe(400);
    expect((await get(`${sa}/similar/?limit=51`)).status).toBe(400);
    expect((await api.request('GET', `/api/0/organizations/initech/issues/${sa}/similar/`, { token: outsiderToken })).status).toBe(404);
  });
});
