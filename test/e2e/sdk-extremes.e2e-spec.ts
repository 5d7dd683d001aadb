import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const MIB = 1024 * 1024;
/** The documented limits of the SDK endpoints (docs/sending-events.md, "Limits"). */
const LIMITS = { maxBodyBytes: 20 * MIB, maxEnvelopeBytes: 50 * MIB, maxItems: 100, maxItemBytes: 20 * MIB, maxEventBytes: MIB };

const eventId = () => randomUUID().replace(/-/g, '');
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** An envelope of the given items, each with its explicit length. */
function envelope(items: Array<{ type: string; payload: string | Buffer }>, header: object = {}): Buffer {
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  for (const item of items) {
    const payload = Buffer.isBuffer(item.payload) ? item.payload : Buffer.from(item.payload);
    parts.push(Buffer.from(`${JSON.stringify({ type: item.type, length: payload.length })}\n`), payload, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** An envelope of exactly `size` bytes: attachments of the largest size an item may have, the last one padded to fit. */
function envelopeOfSize(size: number): Buffer {
  const header = Buffer.from('{}\n');
  const itemHeader = (length: number) => `${JSON.stringify({ type: 'attachment', length })}\n`;
  const parts: Buffer[] = [header];
  let left = size - header.length;
  while (left > 0) {
    // Each item: its header line, its payload, a newline; as large as the rest allows.
    let payload = Math.min(LIMITS.maxItemBytes, left - 1 - Buffer.byteLength(itemHeader(left)));
    while (Buffer.byteLength(itemHeader(payload)) + payload + 1 > left) payload--;
    parts.push(Buffer.from(itemHeader(payload)), Buffer.alloc(payload, 0x61), Buffer.from('\n'));
    left -= Buffer.byteLength(itemHeader(payload)) + payload + 1;
  }
  const body = Buffer.concat(parts);
  expect(body.length).toBe(size);
  return body;
}

/** How deep a JSON value nests. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

interface Extreme {
  name: string;
  path: 'envelope' | 'store';
  body: () => Buffer | string;
  gzip?: boolean;
  /** `refused`: a 4xx; `accepted`: 200 and the event stored within bounds; `either`: one of the two. */
  outcome: 'refused' | 'accepted' | 'either';
}

/**
 * Depth, size and count extremes on the SDK endpoints: each answers a 4xx, or accepts and stores
 * a bounded event; never a 5xx, and the service stays up.
 */
describe('SDK endpoints at their extremes', () => {
  let api: TestApp;
  let key: { projectId: string; public: string };

  beforeAll(async () => {
    api = await startTestApp();
    key = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
  });

  afterAll(async () => {
    await api?.close();
  });

  const event = (fields: object) => JSON.stringify({ event_id: eventId(), level: 'error', platform: 'node', ...fields });
  const bigString = 'x'.repeat(1_000_000);
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, `value ${i}`]));

  const EXTREMES: Extreme[] = [
    { name: 'an event 100,000 arrays deep (store)', path: 'store', body: () => `{"message":"deep","extra":{"deep":${nested(100_000)}}}`, outcome: 'either' },
    {
      name: 'an event 100,000 arrays deep (envelope)',
      path: 'envelope',
      body: () => envelope([{ type: 'event', payload: `{"event_id":"${eventId()}","message":"deep","contexts":{"deep":${nested(100_000)}}}` }]),
      outcome: 'either',
    },
    { name: 'a body 100,000 arrays deep, not an object (store)', path: 'store', body: () => nested(100_000), outcome: 'refused' },
    { name: 'an envelope header 100,000 arrays deep', path: 'envelope', body: () => `${nested(100_000)}\n{"type":"event"}\n{}\n`, outcome: 'refused' },
    { name: 'an event with a 1 MB string', path: 'store', body: () => event({ message: bigString }), outcome: 'accepted' },
    {
      name: 'an event of a 1 MB string in extra and tags',
      path: 'envelope',
      body: () => envelope([{ type: 'event', payload: event({ message: 'big', extra: { big: bigString }, tags: { big: bigString.slice(0, 40_000) } }) }]),
      outcome: 'accepted',
    },
    { name: 'an event one byte over the event limit', path: 'store', body: () => event({ message: 'x'.repeat(LIMITS.maxEventBytes) }), outcome: 'refused' },
    {
      name: 'an event with a 10,000-key object in extra, tags and contexts',
      path: 'envelope',
      body: () => envelope([{ type: 'event', payload: event({ message: 'wide', extra: wide, tags: wide, contexts: { wide } }) }]),
      outcome: 'accepted',
    },
    {
      name: 'an envelope of the most items',
      path: 'envelope',
      body: () => envelope(Array.from({ length: LIMITS.maxItems }, () => ({ type: 'event', payload: event({ message: 'many' }) }))),
      outcome: 'accepted',
    },
    {
      name: 'an envelope of one item more than the most',
      path: 'envelope',
      body: () => envelope(Array.from({ length: LIMITS.maxItems + 1 }, () => ({ type: 'event', payload: event({ message: 'too many' }) }))),
      outcome: 'refused',
    },
    { name: 'an envelope at the body size limit', path: 'envelope', body: () => envelopeOfSize(LIMITS.maxBodyBytes), outcome: 'accepted' },
    { name: 'an envelope one byte over the body size limit', path: 'envelope', body: () => envelopeOfSize(LIMITS.maxBodyBytes + 1), outcome: 'refused' },
    {
      name: 'a gzip envelope at the decompressed size limit',
      path: 'envelope',
      body: () => envelopeOfSize(LIMITS.maxEnvelopeBytes),
      gzip: true,
      outcome: 'accepted',
    },
    {
      name: 'a gzip envelope one byte over the decompressed size limit',
      path: 'envelope',
      body: () => envelopeOfSize(LIMITS.maxEnvelopeBytes + 1),
      gzip: true,
      outcome: 'refused',
    },
  ];

  it.each(EXTREMES.map((extreme) => [extreme.name, extreme] as const))('answers %s with a 4xx or a bounded event, never a 5xx', async (_name, extreme) => {
    const raw = extreme.body();
    const body = extreme.gzip ? gzipSync(raw) : raw;
    const response = await fetch(`${api.baseUrl}/api/${key.projectId}/${extreme.path}/?sentry_key=${key.public}`, {
      method: 'POST',
      headers: {
        'content-type': extreme.path === 'store' ? 'application/json' : 'application/x-sentry-envelope',
        ...(extreme.gzip ? { 'content-encoding': 'gzip' } : {}),
      },
      body,
    });
    const answer = (await response.json().catch(() => null)) as { id?: string; detail?: string } | null;
    const status = response.status;
    const wanted = { refused: [400, 413], accepted: [200], either: [200, 400, 413] }[extreme.outcome];
    const fine = wanted.includes(status);
    expect({ status, answer: fine ? 'fine' : answer }).toEqual({ status: fine ? status : `one of ${wanted.join(', ')}`, answer: 'fine' });
    if (status >= 400) expect(answer?.detail).toEqual(expect.any(String));

    await eventsProcessed(api);
    if (status === 200 && answer?.id) {
      // Kept within the documented bounds of a stored event, at any depth and width.
      const stored = await api.request('GET', `/api/0/projects/acme/web/events/${answer.id}/`);
      if (extreme.path === 'store' || raw.includes('"type":"event"')) {
        expect(stored.status).toBe(200);
        expect(JSON.stringify(stored.body).length).toBeLessThanOrEqual(LIMITS.maxEventBytes);
        expect(depthOf(stored.body)).toBeLessThanOrEqual(20);
        // At most 200 of the SDK's tags (those the server derives, such as level, come on top).
        expect(stored.body.tags.filter((tag: { key: string }) => tag.key.startsWith('key')).length).toBeLessThanOrEqual(200);
      }
    }
    expect((await api.request('GET', '/health/ready', { token: null })).status).toBe(200);
  });

  it('answers the SDK routes Faultline does not serve (security, minidump, cron) with a 4xx, even with a large body', async () => {
    const body = Buffer.alloc(MIB, 0x61);
    for (const path of [
      `/api/${key.projectId}/security/?sentry_key=${key.public}`,
      `/api/${key.projectId}/minidump/?sentry_key=${key.public}`,
      `/api/${key.projectId}/cron/nightly/${key.public}/`,
      `/api/${key.projectId}/unreal/${key.public}/`,
    ]) {
      const response = await fetch(`${api.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
      const status = response.status;
      expect({ path, status }).toEqual({ path, status: status >= 400 && status < 500 ? status : 'a 4xx' });
    }
    expect((await api.request('GET', '/health/ready', { token: null })).status).toBe(200);
  });
});
