import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { EnvelopeError } from './envelope-error';
import {
  decodeBody,
  decodeBodyPrefix,
  decodeStoreBody,
  DEFAULT_ENVELOPE_LIMITS,
  ENVELOPE_ITEM_TYPES,
  parseEnvelope,
  parseItemJson,
  readEnvelopeHeader,
  type EnvelopeLimits,
} from './envelope';

const LIMITS: EnvelopeLimits = { maxEnvelopeBytes: 10_000, maxItems: 10, maxItemBytes: 1_000 };
const EVENT_ID = '9ec79c33ec9942ab8353589fcb2e04dc';

const buf = (...parts: Array<string | Buffer>): Buffer => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));

async function rejectionOf(decoding: Promise<unknown>): Promise<EnvelopeError> {
  try {
    await decoding;
  } catch (error) {
    expect(error).toBeInstanceOf(EnvelopeError);
    return error as EnvelopeError;
  }
  throw new Error('expected an EnvelopeError');
}

function errorOf(run: () => unknown): EnvelopeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvelopeError);
    return error as EnvelopeError;
  }
  throw new Error('expected an EnvelopeError');
}

describe('parseEnvelope', () => {
  it('parses the example envelope of the Sentry docs (implicit and explicit lengths)', () => {
    const body = buf(
      `{"event_id":"${EVENT_ID}","dsn":"https://e12d836b15bb49d7bbf99e64295d995b:@sentry.io/42"}\n`,
      '{"type":"attachment","length":10,"content_type":"text/plain","filename":"hello.txt"}\n',
      Buffer.from([0xef, 0xbb, 0xbf, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x0d, 0x0a]), // a BOM, "Hello" and CRLF: 10 bytes
      '\n',
      '{"type":"event","length":41,"content_type":"application/json","filename":"application.log"}\n',
      '{"message":"hello world","level":"error"}\n',
    );
    const envelope = parseEnvelope(body, LIMITS);
    expect(envelope.header).toEqual({ event_id: EVENT_ID, dsn: 'https://e12d836b15bb49d7bbf99e64295d995b:@sentry.io/42' });
    expect(envelope.items.map((item) => item.type)).toEqual(['attachment', 'event']);
    expect(envelope.items[0].header).toEqual({ type: 'attachment', length: 10, content_type: 'text/plain', filename: 'hello.txt' });
    expect(envelope.items[0].payload).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x0d, 0x0a]));
    expect(parseItemJson(envelope.items[1], 2)).toEqual({ message: 'hello world', level: 'error' });
  });

  it('reads payloads without length up to the next newline or the end', () => {
    const envelope = parseEnvelope(buf('{}\n{"type":"event"}\n{"a":1}\n{"type":"session"}\n{"b":2}'), LIMITS);
    expect(envelope.items.map((item) => [item.type, item.payload.toString()])).toEqual([
      ['event', '{"a":1}'],
      ['session', '{"b":2}'],
    ]);
  });

  it('keeps newlines and binary bytes inside an explicit-length payload', () => {
    const binary = Buffer.from([0x00, 0x0a, 0xff, 0x0a, 0x0a, 0x7b]);
    const envelope = parseEnvelope(buf('{}\n{"type":"attachment","length":6}\n', binary, '\n{"type":"event","length":2}\n{}'), LIMITS);
    expect(envelope.items[0].payload).toEqual(binary);
    expect(envelope.items[1].payload.toString()).toBe('{}');
  });

  it('does not require the newline after an explicit-length payload', () => {
    const envelope = parseEnvelope(buf('{}\n{"type":"event","length":2}\n{}{"type":"event","length":2}\n{}'), LIMITS);
    expect(envelope.items).toHaveLength(2);
  });

  it('accepts a zero-length item and a header without a payload at the end', () => {
    const envelope = parseEnvelope(buf('{}\n{"type":"attachment","length":0}\n{"type":"client_report"}'), LIMITS);
    expect(envelope.items.map((item) => item.payload.length)).toEqual([0, 0]);
    expect(parseEnvelope(buf('{}\n{"type":"attachment","length":0}'), LIMITS).items[0].payload.length).toBe(0);
  });

  it('tolerates blank lines between items, CRLF blank lines and a missing or extra trailing newline', () => {
    const envelope = parseEnvelope(buf('{}\n\n\n{"type":"event"}\n{}\n\r\n\n{"type":"session"}\n{}\n\n'), LIMITS);
    expect(envelope.items.map((item) => item.type)).toEqual(['event', 'session']);
    expect(parseEnvelope(buf('{}'), LIMITS)).toEqual({ header: {}, items: [] });
    expect(parseEnvelope(buf('{}\n'), LIMITS)).toEqual({ header: {}, items: [] });
    expect(parseEnvelope(buf('{"sent_at":"2024-01-01T00:00:00Z"}\r\n'), LIMITS).header.sent_at).toBe('2024-01-01T00:00:00Z');
  });

  it('classifies every known item type and keeps unknown ones as other', () => {
    const known = ENVELOPE_ITEM_TYPES.map((type) => `{"type":"${type}","length":2}\n{}\n`).join('');
    const envelope = parseEnvelope(buf('{}\n', known, '{"type":"future_thing"}\n{}\n'), { ...LIMITS, maxItems: 100 });
    expect(envelope.items.map((item) => item.type)).toEqual([...ENVELOPE_ITEM_TYPES, 'other']);
    expect(envelope.items.at(-1)?.header.type).toBe('future_thing');
  });

  it('keeps the sdk and other header fields, and accepts a dashed event id', () => {
    const envelope = parseEnvelope(
      buf(
        '{"event_id":"9ec79c33-ec99-42ab-8353-589fcb2e04dc","sent_at":"2024-05-01T10:00:00.000Z","sdk":{"name":"sentry.javascript.node","version":"8.0.0"},"trace":{"trace_id":"x"}}\n',
      ),
      LIMITS,
    );
    expect(envelope.header.sdk).toEqual({ name: 'sentry.javascript.node', version: '8.0.0' });
    expect(envelope.header.trace).toEqual({ trace_id: 'x' });
    expect(parseEnvelope(buf('{"event_id":null,"dsn":null,"sdk":null}'), LIMITS).header).toEqual({});
  });

  describe('malformed envelopes', () => {
    const cases: Array<[string, string | Buffer, string]> = [
      ['an empty body', '', 'envelope is empty'],
      ['an empty first line', '\n{"type":"event"}\n{}', 'envelope header is missing (the first line is empty)'],
      ['a header that is not JSON', '{"event_id":\n', 'envelope header is not valid JSON'],
      ['a header that is an array', '[1,2]\n', 'envelope header must be a JSON object'],
      ['a header that is null', 'null\n', 'envelope header must be a JSON object'],
      ['a header with a numeric event_id', '{"event_id":5}\n', 'envelope header: event_id must be a string'],
      ['a header with a malformed event_id', '{"event_id":"xyz"}\n', 'envelope header: event_id must be a 32-character hex id or a uuid'],
      ['a header with an object dsn', '{"dsn":{}}\n', 'envelope header: dsn must be a string'],
      ['a header with a numeric sent_at', '{"sent_at":1}\n', 'envelope header: sent_at must be a string'],
      ['a header with a string sdk', '{"sdk":"js"}\n', 'envelope header: sdk must be an object'],
      ['an item header that is not JSON', '{}\n{"type":"event"}\n{}\n{type: session}\n{}', 'item 2: header is not valid JSON'],
      ['an item header that is a string', '{}\n"event"\n{}', 'item 1: header must be a JSON object'],
      ['an item without type', '{}\n{"length":2}\n{}', 'item 1: header has no type'],
      ['an item with a numeric type', '{}\n{"type":3}\n{}', 'item 1: type must be a non-empty string'],
      ['an item with an empty type', '{}\n{"type":""}\n{}', 'item 1: type must be a non-empty string'],
      ['a negative length', '{}\n{"type":"event","length":-1}\n{}', 'item 1: length must be a non-negative integer'],
      ['a fractional length', '{}\n{"type":"event","length":1.5}\n{}', 'item 1: length must be a non-negative integer'],
      ['a string length', '{}\n{"type":"event","length":"2"}\n{}', 'item 1: length must be a non-negative integer'],
      ['a numeric filename', '{}\n{"type":"attachment","filename":5,"length":0}\n', 'item 1: filename must be a string'],
      ['a numeric content_type', '{}\n{"type":"attachment","content_type":5,"length":0}\n', 'item 1: content_type must be a string'],
      [
        'a length beyond the end',
        '{}\n{"type":"event"}\n{}\n{"type":"event","length":500}\n' + 'x'.repeat(20),
        'item 2: length 500 exceeds the remaining 20 bytes',
      ],
      ['a length on the last line', '{}\n{"type":"attachment","length":3}', 'item 1: length 3 exceeds the remaining 0 bytes'],
    ];
    it.each(cases)('refuses %s', (_name, body, message) => {
      const error = errorOf(() => parseEnvelope(typeof body === 'string' ? Buffer.from(body) : body, LIMITS));
      expect(error.message).toBe(message);
      expect(error.code).toBe('invalid');
      expect(error.reason).toBe('malformed');
    });
  });

  describe('limits', () => {
    it('refuses an envelope over the size limit before reading it', () => {
      const error = errorOf(() => parseEnvelope(Buffer.alloc(101, 0x20), { ...LIMITS, maxEnvelopeBytes: 100 }));
      expect(error.message).toBe('envelope is 101 bytes, over the limit of 100 bytes');
      expect(error.reason).toBe('too_large');
      expect(parseEnvelope(buf('{}', ' '.repeat(98)), { ...LIMITS, maxEnvelopeBytes: 100 }).items).toEqual([]);
    });

    it('refuses more items than allowed', () => {
      const body = buf('{}\n', '{"type":"event"}\n{}\n'.repeat(3));
      expect(parseEnvelope(body, { ...LIMITS, maxItems: 3 }).items).toHaveLength(3);
      const error = errorOf(() => parseEnvelope(body, { ...LIMITS, maxItems: 2 }));
      expect(error.message).toBe('envelope has more than 2 items');
      expect(error.reason).toBe('too_large');
    });

    it('refuses an item over the item limit, with and without length', () => {
      const limits = { ...LIMITS, maxItemBytes: 4 };
      expect(parseEnvelope(buf('{}\n{"type":"event","length":4}\n1234'), limits).items).toHaveLength(1);
      const explicit = errorOf(() => parseEnvelope(buf('{}\n{"type":"event","length":5}\n12345'), limits));
      expect(explicit.message).toBe('item 1: payload of 5 bytes exceeds the item limit of 4 bytes');
      expect(explicit.reason).toBe('too_large');
      const implicit = errorOf(() => parseEnvelope(buf('{}\n{"type":"event"}\n1234\n{"type":"event"}\n12345\n'), limits));
      expect(implicit.message).toBe('item 2: payload of 5 bytes exceeds the item limit of 4 bytes');
    });

    it('has sane defaults', () => {
      expect(DEFAULT_ENVELOPE_LIMITS.maxItemBytes).toBeLessThanOrEqual(DEFAULT_ENVELOPE_LIMITS.maxEnvelopeBytes);
      expect(Object.isFrozen(DEFAULT_ENVELOPE_LIMITS)).toBe(true);
    });
  });
});

describe('parseItemJson', () => {
  it('names the item whose payload is not JSON', () => {
    const envelope = parseEnvelope(buf('{}\n{"type":"event"}\n{not json'), LIMITS);
    expect(errorOf(() => parseItemJson(envelope.items[0], 1)).message).toBe('item 1: event payload is not valid JSON');
  });
});

describe('decodeBody', () => {
  const text = Buffer.from('{"event_id":"abc"}\n'.repeat(50));

  it('passes identity and missing encodings through', async () => {
    expect(await decodeBody(text, undefined, 10_000)).toBe(text);
    expect(await decodeBody(text, null, 10_000)).toBe(text);
    expect(await decodeBody(text, '', 10_000)).toBe(text);
    expect(await decodeBody(text, 'identity', 10_000)).toBe(text);
  });

  it('decodes gzip, x-gzip, br and deflate (zlib-wrapped and raw), case-insensitively', async () => {
    expect(await decodeBody(gzipSync(text), 'gzip', 10_000)).toEqual(text);
    expect(await decodeBody(gzipSync(text), ' GZIP ', 10_000)).toEqual(text);
    expect(await decodeBody(gzipSync(text), 'x-gzip', 10_000)).toEqual(text);
    expect(await decodeBody(brotliCompressSync(text), 'br', 10_000)).toEqual(text);
    expect(await decodeBody(deflateSync(text), 'deflate', 10_000)).toEqual(text);
    expect(await decodeBody(deflateRawSync(text), 'deflate', 10_000)).toEqual(text);
  });

  it('undoes a list of encodings in reverse order', async () => {
    expect(await decodeBody(brotliCompressSync(gzipSync(text)), 'gzip, br', 10_000)).toEqual(text);
    expect(await decodeBody(gzipSync(text), 'identity, gzip', 10_000)).toEqual(text);
  });

  it('decodes small raw deflate streams whatever their first bytes', async () => {
    for (let index = 0; index < 200; index++) {
      const sample = Buffer.from(`payload ${index} ${'x'.repeat(index % 17)}`);
      expect(await decodeBody(deflateRawSync(sample), 'deflate', 10_000)).toEqual(sample);
      expect(await decodeBody(deflateSync(sample), 'deflate', 10_000)).toEqual(sample);
    }
  });

  it('accepts output of exactly the limit and refuses one byte more', async () => {
    expect(await decodeBody(gzipSync(text), 'gzip', text.length)).toEqual(text);
    const error = await rejectionOf(decodeBody(gzipSync(text), 'gzip', text.length - 1));
    expect(error.message).toBe(`decompressed body exceeds the limit of ${text.length - 1} bytes`);
    expect(error.reason).toBe('too_large');
    expect((await rejectionOf(decodeBody(text, undefined, 10))).reason).toBe('too_large');
    expect((await rejectionOf(decodeBody(Buffer.from('x'), undefined, 0))).reason).toBe('too_large');
  });

  it('refuses zip bombs without inflating them', async () => {
    const bomb = Buffer.alloc(64 * 1024 * 1024); // 64 MiB of zeros
    const limit = 1024 * 1024;
    for (const [encoding, compressed] of [
      ['gzip', gzipSync(bomb)],
      ['deflate', deflateSync(bomb)],
      ['deflate', deflateRawSync(bomb)],
      ['br', brotliCompressSync(bomb)],
    ] as const) {
      expect(compressed.length).toBeLessThan(100 * 1024);
      const before = process.memoryUsage().arrayBuffers;
      const error = await rejectionOf(decodeBody(compressed, encoding, limit));
      expect(error.message).toBe(`decompressed body exceeds the limit of ${limit} bytes`);
      expect(error.reason).toBe('too_large');
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    }
  });

  it('refuses a bomb hidden under two layers', async () => {
    const inner = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    expect((await rejectionOf(decodeBody(gzipSync(inner), 'gzip, gzip', 1024 * 1024))).reason).toBe('too_large');
  });

  it('reports corrupt and truncated data', async () => {
    const gzip = await rejectionOf(decodeBody(Buffer.from('not gzip at all'), 'gzip', 10_000));
    expect(gzip.message).toMatch(/^gzip body is corrupt: /);
    expect(gzip.reason).toBe('malformed');
    expect((await rejectionOf(decodeBody(gzipSync(text).subarray(0, 20), 'gzip', 10_000))).message).toMatch(/^gzip body is corrupt: /);
    expect((await rejectionOf(decodeBody(Buffer.from([0xff, 0xff, 0xff, 0xff]), 'deflate', 10_000))).message).toMatch(/^deflate body is corrupt: /);
    expect((await rejectionOf(decodeBody(Buffer.from('garbage!garbage!'), 'br', 10_000))).message).toMatch(/^br body is corrupt: /);
    expect((await rejectionOf(decodeBody(Buffer.alloc(0), 'gzip', 10_000))).message).toMatch(/^gzip body is corrupt: /);
    // A zlib header in front of garbage is not taken for a size problem.
    expect((await rejectionOf(decodeBody(Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff]), 'deflate', 10_000))).reason).toBe('malformed');
  });

  it('refuses more than two stacked encodings before decompressing any', async () => {
    const threeLayers = gzipSync(gzipSync(gzipSync(text)));
    const error = await rejectionOf(decodeBody(threeLayers, 'gzip, gzip, gzip', 10_000));
    expect(error.message).toBe('at most 2 content encodings are supported, got 3');
    expect(error.reason).toBe('unsupported_encoding');
    // Not even a corrupt body is looked at.
    expect((await rejectionOf(decodeBody(Buffer.from('garbage'), 'gzip, br, deflate, gzip', 10_000))).reason).toBe('unsupported_encoding');
    expect(await decodeBody(gzipSync(gzipSync(text)), 'gzip, identity, gzip', 10_000)).toEqual(text);
  });

  it('decompresses off the event loop', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    await rejectionOf(decodeBody(bomb, 'gzip', 16 * 1024 * 1024));
    clearInterval(counting);
    expect(turns).toBeGreaterThan(0);
  });

  it('refuses unknown encodings with their own reason', async () => {
    const error = await rejectionOf(decodeBody(text, 'compress', 10_000));
    expect(error.message).toBe('unsupported content encoding: compress');
    expect(error.reason).toBe('unsupported_encoding');
    expect((await rejectionOf(decodeBody(text, 'zstd', 10_000))).reason).toBe('unsupported_encoding');
  });
});

describe('decodeBodyPrefix and readEnvelopeHeader', () => {
  const header = JSON.stringify({ dsn: 'https://abc@example.com/42' });
  const envelope = Buffer.from(`${header}\n{"type":"event"}\n${JSON.stringify({ message: 'x'.repeat(100_000) })}\n`);

  it('reads the header line of an envelope, compressed or not', async () => {
    const encoded = [
      [envelope, undefined],
      [gzipSync(envelope), 'gzip'],
      [brotliCompressSync(gzipSync(envelope)), 'gzip, br'],
      [deflateRawSync(envelope), 'deflate'],
    ] as const;
    for (const [body, encoding] of encoded) {
      const start = await decodeBodyPrefix(body, encoding, 1024);
      expect(start.length).toBeLessThanOrEqual(1024);
      expect(readEnvelopeHeader(start, 1024)).toEqual({ dsn: 'https://abc@example.com/42' });
    }
    expect(readEnvelopeHeader(Buffer.from(header), 1024)).toEqual({ dsn: 'https://abc@example.com/42' });
  });

  it('stops at its limit, however much the body would inflate to', async () => {
    const bomb = gzipSync(gzipSync(Buffer.alloc(64 * 1024 * 1024)));
    const start = await decodeBodyPrefix(bomb, 'gzip, gzip', 4096);
    expect(start.length).toBe(4096);
    expect(() => readEnvelopeHeader(start, 4096)).toThrow('envelope header is longer than 4096 bytes');
  });

  it('refuses what decodeBody refuses up front, and names a corrupt stream', async () => {
    expect((await rejectionOf(decodeBodyPrefix(envelope, 'zstd', 1024))).reason).toBe('unsupported_encoding');
    expect((await rejectionOf(decodeBodyPrefix(envelope, 'gzip, gzip, gzip', 1024))).reason).toBe('unsupported_encoding');
    expect((await rejectionOf(decodeBodyPrefix(Buffer.from('not gzip at all'), 'gzip', 1024))).message).toMatch(/^gzip body is corrupt: /);
  });
});

describe('decodeStoreBody', () => {
  const event = Buffer.from(JSON.stringify({ message: 'from raven', extra: { text: 'x'.repeat(500) } }));

  it('passes JSON through', async () => {
    expect(await decodeStoreBody(event, 1_000_000)).toBe(event);
    expect((await decodeStoreBody(Buffer.from('  {"a":1}'), 1_000_000)).toString()).toBe('  {"a":1}');
  });

  it('decodes base64 JSON and base64 zlib JSON, as old SDKs send them', async () => {
    expect(await decodeStoreBody(Buffer.from(event.toString('base64')), 1_000_000)).toEqual(event);
    expect(await decodeStoreBody(Buffer.from(deflateSync(event).toString('base64')), 1_000_000)).toEqual(event);
  });

  it('caps the inflated size and names a corrupt stream', async () => {
    expect((await rejectionOf(decodeStoreBody(Buffer.from(deflateSync(event).toString('base64')), 100))).reason).toBe('too_large');
    const corrupt = Buffer.concat([deflateSync(event).subarray(0, 10), Buffer.alloc(20, 0xff)]);
    expect((await rejectionOf(decodeStoreBody(Buffer.from(corrupt.toString('base64')), 1_000_000))).message).toMatch(/^base64 zlib body is corrupt/);
  });
});
