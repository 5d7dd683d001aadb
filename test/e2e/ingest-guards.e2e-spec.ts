import { gzipSync } from 'node:zlib';
import { EventProcessing } from '@faultline/ingest';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';

/** What one project, or a request without a valid key, must not be able to do to the others. */
describe('ingest guards', () => {
  let api: TestApp;
  let web: { id: string; key: string };
  let mobile: { id: string; key: string };

  const keyOf = async (project: string) => {
    const [key] = (await api.request('GET', `/api/0/projects/acme/${project}/keys/`)).body;
    return { id: String(key.projectId), key: key.public as string };
  };

  beforeAll(async () => {
    api = await startTestApp();
    expect((await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile' } })).status).toBe(201);
    web = await keyOf('web');
    mobile = await keyOf('mobile');
  });

  afterAll(async () => {
    await api?.close();
  });

  const post = (path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${api.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-sentry-envelope', ...headers } });
  const envelope = (event: object, header: object = {}) => `${JSON.stringify(header)}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;
  const queued = async () => (await api.app.get(Database).query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest.ingest_queue`))[0].n;
  const detail = async (response: Response) => ((await response.json()) as { detail: string }).detail;

  describe('inbound filters', () => {
    const filters = '/api/0/projects/acme/web/filters/';

    it('refuses more than 100 patterns, or patterns of more than 200 characters, naming the limit', async () => {
      for (const id of ['error-messages', 'releases']) {
        const tooMany = await api.request('PUT', `${filters}${id}/`, { body: { value: Array.from({ length: 101 }, (_, i) => `*error ${i}*`) } });
        expect(tooMany.status).toBe(400);
        expect(tooMany.body.detail).toContain('at most 100 patterns');
        const tooLong = await api.request('PUT', `${filters}${id}/`, { body: { value: ['*short*', `*${'x'.repeat(199)}*`] } });
        expect(tooLong.status).toBe(400);
        expect(tooLong.body.detail).toContain('each pattern must be 1 to 200 characters');
      }
      expect((await api.request('GET', filters)).body).toEqual([
        { id: 'localhost', active: false },
        { id: 'error-messages', active: false, value: [] },
        { id: 'releases', active: false, value: [] },
      ]);
      const most = Array.from({ length: 100 }, (_, i) => `*${String(i).padStart(3, '0')}${'x'.repeat(195)}`);
      expect((await api.request('PUT', `${filters}releases/`, { body: { value: most } })).status).toBe(204);
      expect((await api.request('GET', filters)).body[2].value).toEqual(most);
      expect((await api.request('PUT', `${filters}releases/`, { body: { value: [] } })).status).toBe(204);
    });

    it("keeps processing every project's events while one project's patterns are adversarial", async () => {
      // Translated to a regular expression this backtracks for minutes on the message below (longer
      // patterns for longer than anyone waits); matched as a glob it costs one pass over it.
      expect((await api.request('PUT', `${filters}error-messages/`, { body: { value: ['*a*a*a*a*b'] } })).status).toBe(204);
      const long = 'a'.repeat(250);
      for (const [project, message] of [
        [web, long],
        [web, `${long}b`],
        [mobile, 'from the other project'],
      ] as const) {
        expect((await post(`/api/${project.id}/envelope/?sentry_key=${project.key}`, envelope({ message }))).status).toBe(200);
      }
      await api.app.get(EventProcessing).drain();
      const stored = await api.app
        .get(Database)
        .query<{ project_id: string; message: string }>(`SELECT project_id::text, data->>'message' AS message FROM issues.error_events`);
      expect(stored).toHaveLength(2);
      expect(stored).toEqual(
        expect.arrayContaining([
          { project_id: web.id, message: long },
          { project_id: mobile.id, message: 'from the other project' },
        ]),
      );
      await api.request('PUT', `${filters}error-messages/`, { body: { value: [] } });
    }, 30_000);
  });

  describe('compressed bodies', () => {
    const garbageGzip = Buffer.concat([gzipSync('{}').subarray(0, 10), Buffer.from('definitely not deflate data')]);
    /** 64 MiB of zeros in about 64 KiB: past the 50 MiB limit once inflated. */
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const unknownKey = 'f'.repeat(32);

    it('answers a request without a valid key before decompressing its body', async () => {
      const gzip = { 'content-encoding': 'gzip' };
      for (const body of [garbageGzip, bomb]) {
        const unknown = await post(`/api/${web.id}/envelope/`, body, { ...gzip, 'x-sentry-auth': `Sentry sentry_key=${unknownKey}, sentry_version=7` });
        expect([unknown.status, await detail(unknown)]).toEqual([401, 'Unknown DSN public key']);
        const store = await post(`/api/${web.id}/store/?sentry_key=${unknownKey}`, body, gzip);
        expect(store.status).toBe(401);
        const keyless = await post(`/api/${web.id}/store/`, body, gzip);
        expect(keyless.status).toBe(401);
        const otherProject = await post(`/api/${web.id}/envelope/?sentry_key=${mobile.key}`, body, gzip);
        expect([otherProject.status, await detail(otherProject)]).toEqual([403, 'The DSN key does not belong to this project']);
      }
      // With a valid key the body is looked at, and refused for what it is.
      const corrupt = await post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, garbageGzip, gzip);
      expect(corrupt.status).toBe(400);
      expect(await detail(corrupt)).toMatch(/^gzip body is corrupt: /);
      const inflated = await post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, bomb, gzip);
      expect([inflated.status, await detail(inflated)]).toEqual([413, `decompressed body exceeds the limit of ${50 * 1024 * 1024} bytes`]);
      expect(await queued()).toBe(0);
    });

    it('reads no more than the header line of an envelope whose key is in it', async () => {
      const tunnelled = (key: string) => gzipSync(envelope({ message: 'through a tunnel' }, { dsn: `http://${key}@example.com/${web.id}` }));
      expect((await post(`/api/${web.id}/envelope/`, tunnelled(web.key), { 'content-encoding': 'gzip' })).status).toBe(200);
      const unknown = await post(`/api/${web.id}/envelope/`, tunnelled(unknownKey), { 'content-encoding': 'gzip' });
      expect([unknown.status, await detail(unknown)]).toEqual([401, 'Unknown DSN public key']);
      // The bomb's first "line" is 64 MiB of zeros: given up after the first 64 KiB.
      const bombed = await post(`/api/${web.id}/envelope/`, bomb, { 'content-encoding': 'gzip' });
      expect([bombed.status, await detail(bombed)]).toEqual([400, 'envelope header is longer than 65536 bytes']);
      expect((await post(`/api/${web.id}/envelope/`, garbageGzip, { 'content-encoding': 'gzip' })).status).toBe(400);
    });

    it('undoes at most two stacked encodings', async () => {
      const event = envelope({ message: 'twice compressed' });
      const twice = await post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, gzipSync(gzipSync(event)), { 'content-encoding': 'gzip, gzip' });
      expect(twice.status).toBe(200);
      const thrice = await post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, gzipSync(gzipSync(gzipSync(event))), {
        'content-encoding': 'gzip, gzip, gzip',
      });
      expect([thrice.status, await detail(thrice)]).toEqual([415, 'at most 2 content encodings are supported, got 3']);
      const many = await post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, bomb, { 'content-encoding': Array(50).fill('gzip').join(', ') });
      expect(many.status).toBe(415);
      const unknown = await post(`/api/${web.id}/envelope/?sentry_key=${unknownKey}`, bomb, { 'content-encoding': Array(50).fill('gzip').join(', ') });
      expect(unknown.status).toBe(401);
    });
  });

  describe('nesting', () => {
    // Written as text: JSON.stringify itself overflows the stack on such values, JSON.parse does not.
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const text = (value: unknown) => JSON.stringify(value).replaceAll('"__deepest__"', nested(100_000)).replaceAll('"__deep__"', nested(10_000));

    it('stores an event nested 100,000 levels deep in its free-form fields, bounded, without overflowing the stack', async () => {
      const [deepest, deep] = ['__deepest__', '__deep__'];
      const event = {
        message: 'deeply nested',
        extra: { deepest },
        contexts: { app: { deep } },
        tags: { deep },
        user: { id: 'u1', data: deep },
        request: { url: 'https://example.test/', data: deepest, headers: deep },
        breadcrumbs: { values: [{ message: 'crumb', data: deep }] },
        exception: { values: [{ type: 'Error', value: 'deep', mechanism: { data: deep }, stacktrace: { frames: [{ function: 'f', vars: deep }] } }] },
        sdk: { name: 'deep', version: '1', integrations: deep },
        fingerprint: deep,
      };
      const deadLetters = async () => (await api.app.get(Database).query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest.ingest_dead_letters`))[0].n;
      const deadBefore = await deadLetters();
      const stored = await post(`/api/${web.id}/store/?sentry_key=${web.key}`, text({ ...event, event_id: 'd'.repeat(32) }), {
        'content-type': 'application/json',
      });
      expect([stored.status, await stored.text()]).toEqual([200, expect.any(String)]);
      const item = text({ ...event, event_id: 'e'.repeat(32) });
      const enveloped = await post(
        `/api/${web.id}/envelope/?sentry_key=${web.key}`,
        `{}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(item) })}\n${item}\n`,
      );
      expect([enveloped.status, await enveloped.text()]).toEqual([200, expect.any(String)]);
      // Nor a body that is nothing but nesting.
      const bare = await post(`/api/${web.id}/store/?sentry_key=${web.key}`, nested(100_000), { 'content-type': 'application/json' });
      expect(bare.status).toBeLessThan(500);
      await api.app.get(EventProcessing).drain();
      expect(await deadLetters()).toBe(deadBefore);
      for (const id of ['d'.repeat(32), 'e'.repeat(32)]) {
        const found = await api.request('GET', `/api/0/projects/acme/web/events/${id}/`);
        expect(found.status).toBe(200);
        expect(JSON.stringify(found.body).length).toBeLessThan(100_000);
      }
    });
  });

  describe('envelopes at the limits', () => {
    const items = (count: number, item: (n: number) => [object, string]) =>
      [JSON.stringify({}), ...Array.from({ length: count }, (_, n) => item(n)).flatMap(([header, payload]) => [JSON.stringify(header), payload])].join('\n');
    const sdk = (body: string | Buffer) => post(`/api/${web.id}/envelope/?sentry_key=${web.key}`, body);

    it('takes 100 items and refuses the 101st, the body over its size and an event over its own, each with a 4xx naming the limit', async () => {
      const report = (n: number): [object, string] => [
        { type: 'user_report' },
        JSON.stringify({ event_id: n.toString(16).padStart(32, '0'), comments: `many ${n}` }),
      ];
      expect((await sdk(items(100, report))).status).toBe(200);
      const tooMany = await sdk(items(101, report));
      expect([tooMany.status, await detail(tooMany)]).toEqual([413, 'envelope has more than 100 items']);

      const event =
        (size: number) =>
        (n: number): [object, string] => [{ type: 'event' }, JSON.stringify({ message: `big ${n}`, extra: { pad: 'x'.repeat(size) } })];
      const overBody = await sdk(items(21, event(1000 * 1000)));
      expect(overBody.status).toBe(413);
      const overEvent = await sdk(items(1, event(1024 * 1024)));
      expect([overEvent.status, await detail(overEvent)]).toEqual([413, expect.stringMatching(/^item 1: event of \d+ bytes exceeds 1048576$/)]);
    });

    it('accepts an event nested 300,000 deep and stores it bounded', async () => {
      const depth = 300_000;
      const deep = `{"message":"deeply nested","extra":{"tree":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      expect((await sdk(items(1, () => [{ type: 'event' }, deep]))).status).toBe(200);
      await api.app.get(EventProcessing).drain();
      const [stored] = await api.app
        .get(Database)
        .query<{ size: number }>(`SELECT octet_length(data::text) AS size FROM issues.error_events WHERE data->>'message' = 'deeply nested'`);
      expect(stored.size).toBeLessThan(10_000);
      expect(await api.app.get(Database).query(`SELECT 1 FROM ingest.ingest_dead_letters`)).toEqual([]);
    });

    it('stores one of 100 events sent with one id', async () => {
      const id = 'f'.repeat(32);
      expect((await sdk(items(100, (n) => [{ type: 'event' }, JSON.stringify({ event_id: id, message: `same id ${n}` })]))).status).toBe(200);
      await api.app.get(EventProcessing).drain();
      expect(await api.app.get(Database).query(`SELECT 1 FROM issues.error_events WHERE event_id = $1`, [id])).toHaveLength(1);
      expect(await api.app.get(Database).query(`SELECT 1 FROM ingest.ingest_dead_letters`)).toEqual([]);
    });
  });
});
