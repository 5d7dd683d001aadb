import fc from 'fast-check';
import { newHexId, PROJECT_DATA_PRIVACY_DEFAULTS, type DataPrivacySettings } from '@faultline/kernel';
import { anyText } from '../../../../../test/support/arbitrary-text';
import { type JsonValue, normalizeEvent, type NormalizedEvent } from '../normalize-event';
import { prepareEvent } from '../prepare-event';
import { dataScrubber } from './data-scrubber';
import { scrubEvent, scrubPayload } from './scrub-event';

const normalize = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt: new Date('2024-05-01T12:00:00.000Z'), newEventId: newHexId() });
const scrub = (raw: Record<string, unknown>, settings: Partial<DataPrivacySettings> = {}): NormalizedEvent =>
  scrubEvent(normalize(raw), dataScrubber({ ...PROJECT_DATA_PRIVACY_DEFAULTS, ...settings }));

const CARD = '4111 1111 1111 1111';

describe('scrubEvent (Relay legacy data scrubbing)', () => {
  it('filters the values of sensitive keys in extra, with Sentry remarks and the original length', () => {
    const event = scrub({ extra: { foo: 'bar', password: 'hello', the_secret: 'hello', apiKey: 'k', access_token: 'x', otp: '1', nested: { passwd: 'p' } } });
    expect(event.extra).toEqual({
      foo: 'bar',
      password: '[Filtered]',
      the_secret: '[Filtered]',
      apiKey: '[Filtered]',
      access_token: '[Filtered]',
      otp: '[Filtered]',
      nested: { passwd: '[Filtered]' },
    });
    expect(event._meta?.extra).toMatchObject({ password: { '': { rem: [['@password:filter', 's', 0, 10]], len: 5 } } });
  });

  it('removes a non-text value under a sensitive key', () => {
    const event = scrub({ extra: { credentials: { user: 'a', pass: 'b' }, secret: 1234 } });
    expect(event.extra).toEqual({ credentials: null, secret: null });
    expect(event._meta?.extra).toEqual({ credentials: { '': { rem: [['@password:filter', 'x']] } }, secret: { '': { rem: [['@password:filter', 'x']] } } });
  });

  it('filters a value that names a password, and card numbers, PEM key bodies and URL passwords inside values', () => {
    const event = scrub({
      extra: {
        note: 'my password is hunter2',
        payment: `paid with ${CARD} today`,
        key: '-----BEGIN PRIVATE KEY-----\nMIIJRAIBADANBgkqhkiG9w0BAQEFAASCCS4wggkqAgEAAoICAQCoNFY4P\n-----END PRIVATE KEY-----',
        dsn: 'postgres://app:s3cr3t@db.example.com/app',
        header: 'Bearer abc.def',
      },
    });
    expect(event.extra).toEqual({
      note: '[Filtered]',
      payment: 'paid with [Filtered] today',
      key: '-----BEGIN PRIVATE KEY-----\n[Filtered]\n-----END PRIVATE KEY-----',
      dsn: 'postgres://app:[Filtered]@db.example.com/app',
      header: '[Filtered]',
    });
    expect(event._meta?.extra).toMatchObject({ payment: { '': { rem: [['@creditcard:filter', 's', 10, 20]], len: 35 } } });
  });

  it('filters the Authorization header, session cookies and sensitive query, body and environment values; leaves the user agent', () => {
    const event = scrub({
      request: {
        url: 'https://shop.example.com/cart',
        headers: { Authorization: 'Basic dXNlcjpwYXNz', 'User-Agent': 'Mozilla/5.0 auth', Accept: 'text/html', Cookie: 'sessionid=abc; theme=dark' },
        query_string: 'page=2&api_key=k',
        data: { card: CARD, password: 'p' },
        env: { SECRET_KEY: 'x', REMOTE_ADDR: '10.0.0.1' },
      },
    });
    expect(event.request?.headers).toEqual([
      ['Authorization', '[Filtered]'],
      ['User-Agent', 'Mozilla/5.0 auth'],
      ['Accept', 'text/html'],
    ]);
    expect(event.request?.cookies).toEqual([
      ['sessionid', '[Filtered]'],
      ['theme', 'dark'],
    ]);
    expect(event.request?.query).toEqual([
      ['page', '2'],
      ['api_key', '[Filtered]'],
    ]);
    expect(event.request?.data).toEqual({ card: '[Filtered]', password: '[Filtered]' });
    expect(event.request?.env).toEqual({ SECRET_KEY: '[Filtered]', REMOTE_ADDR: '10.0.0.1' });
    expect(event._meta?.request).toMatchObject({ cookies: { 0: { 1: { '': { rem: [['@anything:filter', 's', 0, 10]] } } } } });
  });

  it('scrubs breadcrumbs, the user, tags and frame variables; the message and exception values only with readable replacements', () => {
    const event = scrub({
      message: `Charged ${CARD} for ada@example.com`,
      exception: {
        values: [
          {
            type: 'PaymentError',
            value: `card ${CARD} declined for a password reset`,
            stacktrace: { frames: [{ function: 'pay', vars: { token: 't', amount: 3 } }] },
          },
        ],
      },
      breadcrumbs: [{ message: `card ${CARD}`, data: { authorization: 'x', url: '/a' } }],
      user: { id: '7', username: 'ada', data: { apikey: 'k' } },
      tags: { session_token: 'x', route: '/pay' },
    });
    expect(event.message).toBe('Charged [creditcard] for [email]');
    expect(event.exceptions[0].value).toBe('card [creditcard] declined for a password reset');
    expect(event.exceptions[0].stacktrace?.frames[0].vars).toEqual({ token: '[Filtered]', amount: 3 });
    expect(event.breadcrumbs?.[0]).toMatchObject({ message: 'card [Filtered]', data: { authorization: '[Filtered]', url: '/a' } });
    expect(event.user).toMatchObject({ id: '7', username: 'ada', data: { apikey: '[Filtered]' } });
    expect(event.tags).toEqual([
      ['session_token', '[Filtered]'],
      ['route', '/pay'],
    ]);
    expect(event._meta?.message).toEqual({
      '': {
        rem: [
          ['@creditcard:replace', 's', 8, 20],
          ['@email:replace', 's', 25, 32],
        ],
        len: 47,
      },
    });
  });

  it('names the event from the scrubbed text', () => {
    const prepared = prepareEvent(
      normalize({ exception: { values: [{ type: 'Error', value: `card ${CARD}` }] } }),
      dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS),
    );
    expect(prepared.event.title).toBe('Error: card [creditcard]');
  });

  it('adds sensitive fields, exempts safe fields, and scrubs nothing when data scrubbing is off', () => {
    expect(
      scrub({ extra: { order_ref: 'A1', note: 'see order_ref', password: 'p' } }, { sensitiveFields: ['ORDER_REF'], safeFields: ['password'] }).extra,
    ).toEqual({
      order_ref: '[Filtered]',
      note: '[Filtered]',
      password: 'p',
    });
    expect(scrub({ extra: { order: { password: 'p' }, other: { password: 'q' } } }, { safeFields: ['extra.order'] }).extra).toEqual({
      order: { password: 'p' },
      other: { password: '[Filtered]' },
    });
    expect(scrub({ extra: { password: 'p' } }, { dataScrubberDefaults: false }).extra).toEqual({ password: 'p' });
    const off = scrub({ extra: { password: 'p' } }, { dataScrubber: false });
    expect(off.extra).toEqual({ password: 'p' });
    expect(off._meta).toBeUndefined();
  });

  it('removes IP addresses only when asked', () => {
    const raw = { user: { id: '1', ip_address: '10.1.2.3' }, request: { env: { REMOTE_ADDR: '10.1.2.3' } }, extra: { seen: 'from 192.168.0.7 via ::1' } };
    expect(scrub(raw).user?.ipAddress).toBe('10.1.2.3');
    const event = scrub(raw, { scrubIPAddresses: true });
    expect(event.user).toEqual({ id: '1' });
    expect(event.request?.env).toEqual({});
    expect(event.extra).toEqual({ seen: 'from [ip] via [ip]' });
    expect(event._meta?.user).toEqual({ ipAddress: { '': { rem: [['@anything:remove', 'x']] } } });
  });

  it('scrubs a raw payload for a dead letter, JSON or not', () => {
    const scrubber = dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS);
    expect(JSON.parse(scrubPayload(JSON.stringify({ extra: { password: 'p' }, message: CARD }), scrubber))).toEqual({
      extra: { password: '[Filtered]' },
      message: '[Filtered]',
    });
    expect(scrubPayload(`{"password": "p" ${CARD}`, scrubber)).toBe('[Filtered]');
    expect(scrubPayload(`not json ${CARD}`, scrubber)).toBe('not json [Filtered]');
  });
});

const SENSITIVE_KEYS = [
  'password',
  'secret',
  'passwd',
  'api_key',
  'apikey',
  'auth',
  'credentials',
  'mysql_pwd',
  'privatekey',
  'private_key',
  'token',
  'authorization',
];

const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyText,
    fc.constantFrom(CARD, 'Bearer x', 'a password', 'http://u:p@h/', '10.0.0.1'),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(anyText, fc.constantFrom(...SENSITIVE_KEYS)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const settings = fc.record({
  dataScrubber: fc.boolean(),
  dataScrubberDefaults: fc.boolean(),
  sensitiveFields: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }),
  safeFields: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  scrubIPAddresses: fc.boolean(),
});

/** Every value under a key (any depth) of the event's extra. */
function valuesUnder(value: JsonValue, keys: ReadonlySet<string>, found: JsonValue[] = []): JsonValue[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (keys.has(key)) found.push(child);
      valuesUnder(child, keys, found);
    }
  } else if (Array.isArray(value)) value.forEach((item) => valuesUnder(item, keys, found));
  return found;
}

describe('scrubEvent properties', () => {
  it('never leaves a value under a default-sensitive key when the defaults are on', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...SENSITIVE_KEYS, 'x', 'y'), json, { maxKeys: 6 }), json, (extra, data) => {
        const event = scrub({ extra: { ...extra, nested: [extra] }, request: { data } });
        for (const value of [
          ...valuesUnder(event.extra ?? {}, new Set(SENSITIVE_KEYS)),
          ...valuesUnder(event.request?.data ?? null, new Set(SENSITIVE_KEYS)),
        ]) {
          expect([null, true, false, '[Filtered]']).toContain(value);
        }
      }),
    );
  });

  it('never throws on any JSON, and a second pass changes nothing', () => {
    fc.assert(
      fc.property(json, json, anyText, settings, (extra, data, message, chosen) => {
        const raw = {
          message,
          extra: { value: extra },
          request: { data, headers: { Authorization: message } },
          breadcrumbs: [{ message, data: { value: data } }],
          user: { ip_address: '10.0.0.1', data: { value: extra } },
        };
        const once = scrub(raw, chosen);
        const copy = JSON.parse(JSON.stringify(once)) as NormalizedEvent;
        const twice = scrubEvent(copy, dataScrubber({ ...PROJECT_DATA_PRIVACY_DEFAULTS, ...chosen }));
        expect(twice).toEqual(JSON.parse(JSON.stringify(once)));
        expect(() => scrubPayload(JSON.stringify(raw), dataScrubber({ ...PROJECT_DATA_PRIVACY_DEFAULTS, ...chosen }))).not.toThrow();
      }),
      // A sensitive field that matches what scrubbing writes ("[" in "[ip]") once failed the second pass.
      { examples: [[0, '10.0.0.1', '', { dataScrubber: true, dataScrubberDefaults: false, sensitiveFields: ['['], safeFields: [], scrubIPAddresses: true }]] },
    );
  });
});
