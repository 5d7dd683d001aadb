import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { EventProcessing } from '@faultline/ingest';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';

interface Route {
  method: string;
  path: string;
  fields: string[];
}

/** Strings that break naive code: NUL, lone surrogates, bidi overrides, huge, traversal, injection. */
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202egnp.exe',
  'e\u0301\u0301\u0301',
  '💥'.repeat(2_000),
  'x'.repeat(200_000),
  '%00',
  '../../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '{{auto}}',
  '__proto__',
  '-1',
  '1e309',
  '9'.repeat(40),
];

const edgeString = fc.oneof(
  fc.constantFrom(...EDGE_STRINGS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((s) => `${s}\u0000`),
);
/** A path segment as raw bytes on the wire: UTF-8 of an edge string, or encodings no valid text has. */
const pathValue = fc.oneof(
  edgeString.map((s) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  // Not '.' or '..': clients resolve dot segments before sending, so the server never sees them.
  fc.constantFrom('%ED%A0%80', '%FF%FE', '%00', '%', '%zz', '%2F', '%5C', 'x'.repeat(5_000)),
);
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...EDGE_STRINGS),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom(...EDGE_STRINGS), { maxLength: 4 }),
  fc.constant({ __proto__: { isSuperuser: true }, constructor: { prototype: {} } }),
  fc.constant(JSON.parse(nested(200))),
  fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', '\u0000'), fc.constantFrom(...EDGE_STRINGS), { maxKeys: 3 }),
);

/** A request body a client may get wrong: not JSON, JSON of the wrong shape, or the route's fields with wrong values. */
const badBody = (fields: string[]) =>
  fc.oneof(
    fc.constantFrom('{"name": ', '[', '{', 'null', '"text"', '12', nested(50_000), '{"a":1,"a":2}', '\u0000', 'not json at all'),
    fc.string({ unit: 'binary', maxLength: 200 }),
    wrongValue.map((value) => JSON.stringify(value) ?? 'null'),
    fc
      .dictionary(fc.constantFrom(...(fields.length ? fields : ['name']), '__proto__', 'constructor'), wrongValue, { minKeys: 1, maxKeys: 4 })
      .map((body) => JSON.stringify(body)),
  );

const badQuery = fc.dictionary(
  fc.constantFrom('cursor', 'per_page', 'query', 'statsPeriod', 'sort', 'limit', 'key', 'id', 'project', 'environment'),
  edgeString,
  { maxKeys: 3 },
);

const badHeaders = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json',
      'application/scim+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ),
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'gzip, gzip, gzip', 'x-unknown'),
    'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1, 10.0.0.1', 'not an address'),
  },
  { requiredKeys: ['content-type'] },
);

/**
 * Sends malformed, oversized, deeply nested, wrongly typed and unicode-edge bodies, query strings,
 * headers and path parameters to every write route of the OpenAPI document: each answers a 4xx
 * JSON error (or, for input that happens to be valid, a 2xx), never a 5xx, and a refused request
 * changes nothing in the database.
 */
describe('adversarial input', () => {
  let api: TestApp;
  let routes: Route[];
  const ids: Record<string, string> = {};
  const statuses: number[] = [];

  beforeAll(async () => {
    api = await startTestApp();
    const docs = await api.request('GET', '/api/docs.json', { token: null });
    routes = Object.entries(docs.body.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          fields: requestFields(docs.body, operation.requestBody),
        })),
    );
    Object.assign(ids, await realObjects());
    await recordWrites();
    // The recorder sees a change that is made.
    const before = await writes();
    expect((await api.request('PUT', '/api/0/organizations/acme/', { body: { name: 'Acme' } })).status).toBe(200);
    expect(await writes()).not.toEqual(before);
  });

  afterAll(async () => {
    await api?.close();
  });

  const writeRoutes = () => routes.filter((r) => r.method !== 'GET' && !SELF_REVOKING.has(`${r.method} ${r.path}`));

  // These two walk every route of the API in turn: their time grows with the routes, not with any one answer.
  it('answers bad bodies, queries and headers on every write route with a 4xx and changes nothing', async () => {
    const targets = writeRoutes().filter((r) => r.method !== 'DELETE');
    expect(targets.length).toBeGreaterThanOrEqual(30);
    for (const route of targets) {
      await fc.assert(
        fc.asyncProperty(badBody(route.fields), badQuery, badHeaders, async (body, query, headers) => {
          await expectRefusedOrValid(route, concrete(route.path), { body, query, headers });
        }),
        { numRuns: 15 },
      );
    }
    // The inputs reached validation: most were refused as bad requests, not as unknown objects.
    expect(statuses.filter((s) => s === 400 || s === 413 || s === 415).length).toBeGreaterThan(statuses.length / 2);
  }, 300_000);

  it('answers hostile path parameters on every route with a 4xx, never a 5xx', async () => {
    const withParameters = routes.filter((r) => r.path.includes('{') && !SELF_REVOKING.has(`${r.method} ${r.path}`));
    for (const route of withParameters) {
      await fc.assert(
        fc.asyncProperty(pathValue, fc.nat(), async (value, which) => {
          const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          const target = names[which % names.length];
          const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === target ? value : (ids[name] ?? '1')));
          await expectRefusedOrValid(route, path, {});
        }),
        { numRuns: 4 },
      );
    }
  }, 300_000);

  it('refuses text PostgreSQL cannot store before any handler runs, on every write route', async () => {
    for (const route of writeRoutes().filter((r) => r.method !== 'DELETE')) {
      const before = await writes();
      for (const body of ['{"name":"x\\udfffy"}', '{"name":"a\\u0000b"}', '{"\\ud800":1}']) {
        const response = await api.request(route.method, `${concrete(route.path)}/`, { rawBody: body, headers: { 'content-type': 'application/json' } });
        expect({ route: route.path, body, status: response.status }).toEqual({ route: route.path, body, status: 400 });
      }
      expect(await writes()).toEqual(before);
    }
  }, 300_000);

  it('refuses JSON nested deeper than its budget before any handler runs, on every write route, however deep', async () => {
    for (const route of writeRoutes().filter((r) => r.method !== 'DELETE')) {
      const field = route.fields[0] ?? 'name';
      const before = await writes();
      for (const body of [nested(3_000), `{"${field}":${nested(3_000)}}`, `{"${field}":${nested(100_000)}}`]) {
        const response = await api.request(route.method, `${concrete(route.path)}/`, { rawBody: body, headers: { 'content-type': 'application/json' } });
        const answer = { route: `${route.method} ${route.path}`, depth: body.length, status: response.status, detail: response.body?.detail };
        expect(answer).toEqual({ ...answer, status: 400, detail: expect.stringContaining('nested') });
      }
      expect(await writes()).toEqual(before);
    }
    // SCIM's content type is parsed by its own parser and checked the same way.
    const scim = await api.request('POST', '/api/0/organizations/acme/scim/v2/Users', {
      rawBody: `{"schemas":${nested(3_000)}}`,
      headers: { 'content-type': 'application/scim+json' },
    });
    expect(scim.status).toBe(400);
    // A body at the budget is not refused for its nesting.
    const atBudget = await api.request('PUT', '/api/0/organizations/acme/', {
      rawBody: `{"name":${nested(63)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(atBudget.status).toBe(400);
    expect(atBudget.body.detail).not.toContain('nested');
  });

  it('still serves the organization it was attacking', async () => {
    expect((await api.request('GET', '/api/0/organizations/acme/')).status).toBe(200);
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${ids.issue_id}/`)).status).toBe(200);
  });

  /** Routes that end the caller's own credentials; walking them would only test a signed-out client. */
  const SELF_REVOKING = new Set(['DELETE /api/0/api-tokens', 'DELETE /api/0/auth']);

  async function expectRefusedOrValid(route: Route, path: string, input: { body?: string; query?: Record<string, string>; headers?: Record<string, string> }) {
    const search = new URLSearchParams(input.query ?? {}).toString();
    const before = await writes();
    const response = await api.request(route.method, `${path}/${search ? `?${search}` : ''}`, { rawBody: input.body, headers: input.headers });
    statuses.push(response.status);
    const summary = { route: `${route.method} ${route.path}`, path: path.slice(0, 200), body: input.body?.slice(0, 200), status: response.status };
    expect(response.status < 500 ? summary : { ...summary, answer: response.body }).toEqual(summary);
    if (response.status >= 400) {
      // API routes answer JSON; pages a person opens from a mail (unsubscribe, accept an invite) answer a page.
      const json = typeof response.body === 'object' && response.body !== null;
      if (route.path.startsWith('/api/')) expect({ ...summary, json }).toEqual({ ...summary, json: true });
      expect(await writes()).toEqual(before);
    }
  }

  function concrete(path: string): string {
    return path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1');
  }

  /**
   * Committed row changes so far, per table. A row trigger on every table records each insert,
   * delete and update that changes more than the volatile columns; counting them costs a lookup,
   * where hashing every row of every table after each request took three quarters of the walk.
   */
  async function writes(): Promise<Record<string, number>> {
    const rows = await api.app
      .get(Database)
      .query<{ name: string; changes: number }>('SELECT table_name AS name, count(*)::int AS changes FROM public.adversarial_writes GROUP BY table_name');
    return Object.fromEntries(rows.map((r) => [r.name, r.changes]));
  }

  async function recordWrites(): Promise<void> {
    const database = api.app.get(Database);
    const volatileColumns = `ARRAY[${VOLATILE_COLUMNS.map((c) => `'${c}'`).join(', ')}]`;
    await database.query('CREATE TABLE public.adversarial_writes (table_name text NOT NULL)');
    await database.query(`
      CREATE FUNCTION public.adversarial_record_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND to_jsonb(NEW) - ${volatileColumns} = to_jsonb(OLD) - ${volatileColumns} THEN RETURN NULL; END IF;
        INSERT INTO public.adversarial_writes VALUES (format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME));
        RETURN NULL;
      END $$`);
    // Partitions inherit their parent's trigger.
    const tables = await database.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg_toast%' AND c.relname <> 'adversarial_writes'`,
    );
    for (const { name } of tables.filter((t) => !VOLATILE_TABLES.some((v) => t.name.endsWith(v)))) {
      await database.query(
        `CREATE TRIGGER adversarial_record_write AFTER INSERT OR UPDATE OR DELETE ON ${name} FOR EACH ROW EXECUTE FUNCTION public.adversarial_record_write()`,
      );
    }
  }

  /** Objects for the routes' path parameters, so requests reach validation instead of a 404. */
  async function realObjects(): Promise<Record<string, string>> {
    const project = await api.request('GET', '/api/0/projects/acme/web/');
    const [key] = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body;
    const sent = await fetch(`${api.baseUrl}/api/${project.body.id}/store/?sentry_key=${key.public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', message: 'adversarial', tags: { region: 'eu' } }),
    });
    expect(sent.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/')).body;
    const comment = await api.request('POST', `/api/0/organizations/acme/issues/${issue.id}/comments/`, { body: { text: 'first' } });
    const hook = await api.request('POST', '/api/0/projects/acme/web/hooks/', { body: { url: 'https://hooks.example.test/x', events: ['event.created'] } });
    const rule = await api.request('POST', '/api/0/projects/acme/web/rules/', {
      body: {
        name: 'r',
        actionMatch: 'all',
        conditions: [{ id: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition' }],
        actions: [{ id: 'sentry.rules.actions.notify_event.NotifyEventAction' }],
      },
    });
    const metric = await api.request('POST', '/api/0/organizations/acme/alert-rules/', {
      body: { name: 'm', aggregate: 'count()', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 1000 }] },
    });
    const app = await api.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Fuzz Bot', organization: 'acme', isInternal: true, scopes: ['project:read'] },
    });
    const installations = await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    const installation = installations.body.find((i: { app: { slug: string } }) => i.app.slug === app.body.slug);
    const token = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'fuzz', scopes: ['org:read'] } });
    const team = await api.request('GET', '/api/0/teams/acme/acme/');
    const [member] = (await api.request('GET', '/api/0/organizations/acme/members/')).body;
    for (const created of [comment, hook, rule, metric, app, token]) expect(created.status).toBeLessThan(300);
    return {
      organization_id_or_slug: 'acme',
      project_id_or_slug: 'web',
      team_id_or_slug: team.body.slug,
      team_id: team.body.id,
      member_id: member.id,
      issue_id: issue.id,
      comment_id: comment.body.id,
      key_id: key.id,
      hook_id: hook.body.id,
      filter_id: 'error-messages',
      rule_id: rule.body.id,
      alert_rule_id: metric.body.id,
      slug: app.body.slug,
      uuid: installation.uuid,
      token_id: token.body.id,
    };
  }
});

/** What changes by the passage of time or by any authenticated request. */
// organization_rate_limits: the spike-protection worker enrols an organization that sends errors
// there on its own schedule, whatever the requests (a change of them by the API is specified in
// change-rate-limits.handler.spec.ts).
const VOLATILE_TABLES = ['ingest_rate_windows', 'migrations', 'organization_rate_limits'];
const VOLATILE_COLUMNS = ['last_used_at', 'next_evaluation_at', 'last_value', 'last_seen_at'];

function requestFields(
  docs: { components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> } },
  requestBody?: { content?: Record<string, { schema?: unknown }> },
): string[] {
  const schema = requestBody?.content?.['application/json']?.schema as { $ref?: string; properties?: Record<string, unknown> } | undefined;
  const resolved = schema?.$ref ? docs.components?.schemas?.[schema.$ref.split('/').pop() as string] : schema;
  return Object.keys(resolved?.properties ?? {});
}
