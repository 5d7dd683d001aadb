import * as fc from 'fast-check';
import { EnvelopeError } from './envelope-error';
import { EVENT_LIMITS, formatParams, normalizeEvent, parseTimestamp, truncate, type NormalizeContext } from './normalize-event';

const RECEIVED = new Date('2024-05-01T12:00:00.000Z');
const context: NormalizeContext = { receivedAt: RECEIVED };
const normalize = (raw: unknown, extra: Partial<NormalizeContext> = {}) => normalizeEvent(raw, { ...context, ...extra });

/** What @sentry/node 8 sends for `throw new TypeError("Cannot read properties of undefined")`. */
const nodeEvent = {
  event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
  timestamp: 1714564799.123,
  platform: 'node',
  level: 'error',
  server_name: 'web-1',
  release: 'my-app@1.2.3',
  environment: 'staging',
  transaction: 'GET /users/:id',
  exception: {
    values: [
      {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'id')",
        mechanism: { type: 'onuncaughtexception', handled: false },
        stacktrace: {
          frames: [
            {
              filename: 'node:internal/process/task_queues',
              module: 'task_queues',
              function: 'process.processTicksAndRejections',
              lineno: 95,
              colno: 5,
              in_app: false,
            },
            {
              filename: '/srv/app/server.js',
              abs_path: '/srv/app/server.js',
              module: 'app/server',
              function: 'handler',
              lineno: 42,
              colno: 17,
              in_app: true,
              pre_context: ['function handler(req) {'],
              context_line: '  return req.user.id;',
              post_context: ['}'],
            },
          ],
        },
      },
    ],
  },
  tags: { route: '/users/:id', retries: 3, cached: false },
  user: { id: 17, email: 'ada@example.com', ip_address: '{{auto}}' },
  request: { url: 'https://api.example.com/users/1', method: 'get', headers: { Accept: 'application/json' }, query_string: 'a=1&b=two' },
  sdk: { name: 'sentry.javascript.node', version: '8.0.0', integrations: ['Http'] },
  contexts: { runtime: { name: 'node', version: 'v20.11.0' } },
  extra: { attempt: 2 },
};

describe('normalizeEvent', () => {
  it('normalises a complete Node SDK event', () => {
    const event = normalize(nodeEvent, { clientIp: '203.0.113.9' });
    expect(event).toEqual({
      eventId: '9ec79c33ec9942ab8353589fcb2e04dc',
      timestamp: '2024-05-01T11:59:59.123Z',
      receivedAt: '2024-05-01T12:00:00.000Z',
      level: 'error',
      platform: 'node',
      exceptions: [
        {
          type: 'TypeError',
          value: "Cannot read properties of undefined (reading 'id')",
          mechanism: { type: 'onuncaughtexception', handled: false },
          stacktrace: {
            frames: [
              {
                filename: 'node:internal/process/task_queues',
                module: 'task_queues',
                function: 'process.processTicksAndRejections',
                lineno: 95,
                colno: 5,
                inApp: false,
              },
              {
                filename: '/srv/app/server.js',
                absPath: '/srv/app/server.js',
                module: 'app/server',
                function: 'handler',
                lineno: 42,
                colno: 17,
                inApp: true,
                preContext: ['function handler(req) {'],
                contextLine: '  return req.user.id;',
                postContext: ['}'],
              },
            ],
          },
        },
      ],
      tags: [
        ['route', '/users/:id'],
        ['retries', '3'],
        ['cached', 'false'],
      ],
      user: { id: '17', email: 'ada@example.com', ipAddress: '203.0.113.9' },
      release: 'my-app@1.2.3',
      environment: 'staging',
      serverName: 'web-1',
      transaction: 'GET /users/:id',
      contexts: { runtime: { name: 'node', version: 'v20.11.0' } },
      request: {
        url: 'https://api.example.com/users/1',
        method: 'GET',
        headers: [['Accept', 'application/json']],
        query: [
          ['a', '1'],
          ['b', 'two'],
        ],
      },
      sdk: { name: 'sentry.javascript.node', version: '8.0.0', integrations: ['Http'] },
      extra: { attempt: 2 },
      culprit: 'GET /users/:id',
      title: "TypeError: Cannot read properties of undefined (reading 'id')",
    });
  });

  it('refuses payloads that are not objects', () => {
    for (const raw of [null, undefined, 'event', 42, true, [], [{}]]) {
      expect(() => normalize(raw)).toThrow(EnvelopeError);
    }
    expect(() => normalize('x')).toThrow('event payload must be a JSON object');
  });

  it('fills in everything for an empty object', () => {
    const event = normalize({});
    expect(event.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(event).toMatchObject({
      timestamp: RECEIVED.toISOString(),
      level: 'error',
      platform: 'other',
      exceptions: [],
      tags: [],
      environment: 'production',
      culprit: '',
      title: '<unlabeled event>',
    });
    expect(Object.values(event)).not.toContain(undefined);
  });

  it('ignores wrong-typed fields instead of failing', () => {
    const event = normalize({
      event_id: 12,
      timestamp: { when: 'now' },
      level: ['error'],
      platform: 7,
      message: 42,
      exception: 'boom',
      tags: 'a=b',
      user: 'ada',
      release: {},
      environment: false,
      dist: 3,
      server_name: [],
      transaction: 5,
      contexts: [1, 2],
      request: 'GET /',
      sdk: 'js',
      fingerprint: 'custom',
      extra: 'x',
      logger: {},
    });
    expect(event).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
      timestamp: RECEIVED.toISOString(),
      receivedAt: RECEIVED.toISOString(),
      level: 'error',
      platform: 'other',
      exceptions: [],
      tags: [],
      environment: 'production',
      culprit: '',
      title: '<unlabeled event>',
    });
  });

  describe('eventId', () => {
    it('accepts 32 hex and dashed uuids, lower-cased', () => {
      expect(normalize({ event_id: '9EC79C33EC9942AB8353589FCB2E04DC' }).eventId).toBe('9ec79c33ec9942ab8353589fcb2e04dc');
      expect(normalize({ event_id: '9ec79c33-ec99-42ab-8353-589fcb2e04dc' }).eventId).toBe('9ec79c33ec9942ab8353589fcb2e04dc');
    });

    it('uses the envelope event id, then a new one, when the payload has none or a bad one', () => {
      expect(normalize({}, { eventId: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }).eventId).toBe('a'.repeat(32));
      expect(normalize({ event_id: 'not-an-id' }, { eventId: 'b'.repeat(32) }).eventId).toBe('b'.repeat(32));
      const generated = normalize({ event_id: '0'.repeat(32) }).eventId;
      expect(generated).toMatch(/^[0-9a-f]{32}$/);
      expect(generated).not.toBe('0'.repeat(32));
      expect(normalize({ event_id: '9ec79c33ec9942ab8353589fcb2e04d' }).eventId).not.toBe('9ec79c33ec9942ab8353589fcb2e04d');
      expect(normalize({}).eventId).not.toBe(normalize({}).eventId);
    });
  });

  describe('timestamp', () => {
    it('accepts seconds with fractions, numeric strings and ISO strings', () => {
      expect(normalize({ timestamp: 1714564000 }).timestamp).toBe('2024-05-01T11:46:40.000Z');
      expect(normalize({ timestamp: 1714564000.5678 }).timestamp).toBe('2024-05-01T11:46:40.567Z');
      expect(normalize({ timestamp: '1714564000.25' }).timestamp).toBe('2024-05-01T11:46:40.250Z');
      expect(normalize({ timestamp: '2024-05-01T11:00:00Z' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01T11:00:00.123456Z' }).timestamp).toBe('2024-05-01T11:00:00.123Z');
      expect(normalize({ timestamp: '2024-05-01T13:00:00+02:00' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01T13:00:00+0200' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
    });

    it('reads an ISO string without a zone as UTC, like Relay', () => {
      expect(normalize({ timestamp: '2024-05-01T11:00:00' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01 11:00:00.5' }).timestamp).toBe('2024-05-01T11:00:00.500Z');
    });

    it('falls back to the arrival time for missing or unreadable timestamps', () => {
      for (const timestamp of [undefined, null, '', 'yesterday', '2024-13-45T99:00:00Z', -5, 0, Number.NaN, Infinity, 1e20, true, {}]) {
        expect(normalize({ timestamp }).timestamp).toBe(RECEIVED.toISOString());
      }
    });

    it('moves far-future and very old timestamps to the arrival time', () => {
      expect(normalize({ timestamp: RECEIVED.getTime() / 1000 + 30 }).timestamp).toBe('2024-05-01T12:00:30.000Z');
      expect(normalize({ timestamp: RECEIVED.getTime() / 1000 + 3600 }).timestamp).toBe(RECEIVED.toISOString());
      expect(normalize({ timestamp: '2099-01-01T00:00:00Z' }).timestamp).toBe(RECEIVED.toISOString());
      expect(normalize({ timestamp: '2024-04-01T12:00:00Z' }).timestamp).toBe('2024-04-01T12:00:00.000Z');
      expect(normalize({ timestamp: '2023-01-01T00:00:00Z' }).timestamp).toBe(RECEIVED.toISOString());
    });

    it('parseTimestamp reads only sane values', () => {
      expect(parseTimestamp('2024-05-01')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
      expect(parseTimestamp('2024-05-01T10:00')?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
      expect(parseTimestamp('  1714564000  ')?.toISOString()).toBe('2024-05-01T11:46:40.000Z');
      expect(parseTimestamp('1714564000abc')).toBeUndefined();
      expect(parseTimestamp('Wed, 01 May 2024 10:00:00 GMT')).toBeUndefined();
    });
  });

  describe('level', () => {
    it.each([
      ['fatal', 'fatal'],
      ['critical', 'fatal'],
      ['error', 'error'],
      ['warning', 'warning'],
      ['warn', 'warning'],
      ['WARNING', 'warning'],
      [' info ', 'info'],
      ['log', 'info'],
      ['debug', 'debug'],
      ['verbose', 'error'],
      ['', 'error'],
      [40, 'error'],
      [30, 'warning'],
      [10, 'debug'],
      [50, 'fatal'],
      [99, 'error'],
      [null, 'error'],
    ])('maps %p to %s', (level, expected) => {
      expect(normalize({ level }).level).toBe(expected);
    });
  });

  describe('platform', () => {
    it('keeps a valid platform, else uses the fallback, else other', () => {
      expect(normalize({ platform: 'Python' }).platform).toBe('python');
      expect(normalize({ platform: 'bad platform!' }, { platformFallback: 'node' }).platform).toBe('node');
      expect(normalize({}, { platformFallback: 'javascript' }).platform).toBe('javascript');
      expect(normalize({}, { platformFallback: '???' }).platform).toBe('other');
      expect(normalize({ platform: 'x'.repeat(100) }).platform).toBe('other');
    });
  });

  describe('message', () => {
    it('reads a string message', () => {
      const event = normalize({ message: 'Something happened\nsecond line' });
      expect(event.message).toBe('Something happened\nsecond line');
      expect(event.title).toBe('Something happened');
      expect(event.messageTemplate).toBeUndefined();
    });

    it('reads message objects: formatted first, else message with params', () => {
      expect(normalize({ message: { formatted: 'User 7 left', message: 'User %s left', params: [7] } })).toMatchObject({
        message: 'User 7 left',
        messageTemplate: 'User %s left',
      });
      expect(normalize({ message: { message: 'plain' } }).message).toBe('plain');
      expect(normalize({ message: { message: 'User %s left', params: ['ada'] } })).toMatchObject({ message: 'User ada left', messageTemplate: 'User %s left' });
    });

    it('reads logentry, which wins over message', () => {
      expect(normalize({ logentry: { message: 'Order %s failed after %d tries', params: ['A-1', 3] }, message: 'legacy' })).toMatchObject({
        message: 'Order A-1 failed after 3 tries',
        messageTemplate: 'Order %s failed after %d tries',
        title: 'Order A-1 failed after 3 tries',
      });
      expect(normalize({ logentry: { formatted: 'done' } }).message).toBe('done');
      expect(normalize({ logentry: { message: '' }, message: 'fallback' }).message).toBe('fallback');
      expect(normalize({ 'sentry.interfaces.Message': { message: 'legacy interface' } }).message).toBe('legacy interface');
    });

    it('ignores unusable message shapes', () => {
      expect(normalize({ message: { formatted: 5 } }).message).toBeUndefined();
      expect(normalize({ message: '' }).message).toBeUndefined();
      expect(normalize({ logentry: 'text' }).message).toBe('text');
      expect(normalize({ message: null }).message).toBeUndefined();
    });

    it('truncates long messages', () => {
      const event = normalize({ message: 'm'.repeat(20_000) });
      expect(event.message).toHaveLength(EVENT_LIMITS.message);
      expect(event.title).toHaveLength(EVENT_LIMITS.title);
    });

    it('formatParams applies positional and named params', () => {
      expect(formatParams('%s and %s', ['a'])).toBe('a and %s');
      expect(formatParams('100%% of %s', ['users'])).toBe('100% of users');
      expect(formatParams('%s %s %s', [null, { a: 1 }, true])).toBe('null {"a":1} true');
      expect(formatParams('%(name)s is %(age)d', { name: 'Ada', age: 36 })).toBe('Ada is 36');
      expect(formatParams('%(missing)s', {})).toBe('%(missing)s');
      expect(formatParams('no params %s', 'x')).toBe('no params %s');
    });
  });

  describe('exceptions', () => {
    it('accepts a bare list and a single exception object', () => {
      expect(normalize({ exception: [{ type: 'A' }, { type: 'B' }] }).exceptions.map((exception) => exception.type)).toEqual(['A', 'B']);
      expect(normalize({ exception: { type: 'Solo', value: 'one' } }).exceptions).toEqual([{ type: 'Solo', value: 'one' }]);
      expect(normalize({ 'sentry.interfaces.Exception': { values: [{ type: 'Old' }] } }).exceptions).toEqual([{ type: 'Old' }]);
    });

    it('drops entries that are not exceptions and ignores wrong-typed fields', () => {
      const event = normalize({
        exception: {
          values: [
            null,
            'TypeError',
            {},
            { type: 5, value: null },
            { type: 'Err', module: 3, mechanism: { type: 7, handled: 'no' }, stacktrace: { frames: 'none' } },
            { value: { code: 5 } },
            { value: 404 },
          ],
        },
      });
      expect(event.exceptions).toEqual([{ type: 'Err' }, { value: '{"code":5}' }, { value: '404' }]);
    });

    it('keeps frames as sent, oldest first, and drops malformed frames', () => {
      const event = normalize({
        exception: {
          values: [
            {
              type: 'E',
              stacktrace: {
                frames: [
                  { function: 'first', lineno: -1, colno: 1.5, in_app: 'yes' },
                  null,
                  'frame',
                  { lineno: 3 },
                  { filename: 'b.js', function: 'second', lineno: 7, pre_context: ['a', 5, 'c'], post_context: 'x', context_line: 9 },
                ],
              },
            },
          ],
        },
      });
      expect(event.exceptions[0].stacktrace?.frames).toEqual([
        { function: 'first' },
        { filename: 'b.js', function: 'second', lineno: 7, preContext: ['a', '', 'c'] },
      ]);
    });

    it('bounds the number of frames, keeping the oldest few and the newest', () => {
      const frames = Array.from({ length: 1000 }, (_, index) => ({ function: `f${index}`, filename: 'a.js' }));
      const kept = normalize({ exception: { values: [{ type: 'RecursionError', stacktrace: { frames } }] } }).exceptions[0].stacktrace!.frames;
      expect(kept).toHaveLength(EVENT_LIMITS.maxFrames);
      expect(kept[0].function).toBe('f0');
      expect(kept[EVENT_LIMITS.keptOldestFrames - 1].function).toBe(`f${EVENT_LIMITS.keptOldestFrames - 1}`);
      expect(kept.at(-1)?.function).toBe('f999');
    });

    it('bounds the number of exceptions, keeping the newest', () => {
      const values = Array.from({ length: 40 }, (_, index) => ({ type: `E${index}` }));
      const exceptions = normalize({ exception: { values } }).exceptions;
      expect(exceptions).toHaveLength(EVENT_LIMITS.maxExceptions);
      expect(exceptions.at(-1)?.type).toBe('E39');
    });

    it('keeps the context lines nearest the failing line', () => {
      const lines = Array.from({ length: 30 }, (_, index) => `line ${index}`);
      const frame = normalize({ exception: [{ type: 'E', stacktrace: { frames: [{ function: 'f', pre_context: lines, post_context: lines }] } }] })
        .exceptions[0].stacktrace!.frames[0];
      expect(frame.preContext).toEqual(lines.slice(-10));
      expect(frame.postContext).toEqual(lines.slice(0, 10));
    });
  });

  describe('title', () => {
    it('is Type: first line of the value of the last exception', () => {
      expect(
        normalize({
          exception: [
            { type: 'Cause', value: 'inner' },
            { type: 'Wrapper', value: 'outer\ndetails' },
          ],
        }).title,
      ).toBe('Wrapper: outer');
    });

    it('is the type alone without a value, and Error for a value without type', () => {
      expect(normalize({ exception: [{ type: 'NullPointerException' }] }).title).toBe('NullPointerException');
      expect(normalize({ exception: [{ value: 'something broke' }] }).title).toBe('Error: something broke');
    });

    it('is truncated to 200 characters', () => {
      expect(normalize({ exception: [{ type: 'E', value: 'v'.repeat(500) }] }).title).toHaveLength(200);
    });

    it('prefers the exception over the message', () => {
      expect(normalize({ message: 'msg', exception: [{ type: 'E', value: 'boom' }] }).title).toBe('E: boom');
    });

    it('uses the first non-empty line of the message', () => {
      expect(normalize({ message: '\n\n  hello  \nworld' }).title).toBe('hello');
    });
  });

  describe('culprit', () => {
    const frames = [
      { module: 'lib/router', function: 'dispatch', in_app: false },
      { filename: 'src/users.ts', function: 'loadUser', in_app: true },
      { module: 'app/server', function: 'handler', in_app: true },
      { module: 'node_modules/pg', function: 'query', in_app: false },
    ];

    it('is the transaction when there is one', () => {
      expect(normalize({ transaction: '/users/{id}', exception: [{ type: 'E', stacktrace: { frames } }] }).culprit).toBe('/users/{id}');
    });

    it('is the newest in-app frame of the last exception otherwise', () => {
      expect(normalize({ exception: [{ type: 'E', stacktrace: { frames } }] }).culprit).toBe('app/server in handler');
      expect(normalize({ exception: [{ type: 'E', stacktrace: { frames: frames.slice(0, 2) } }] }).culprit).toBe('src/users.ts in loadUser');
    });

    it('falls back to the newest frame when none is in-app, with ? for a missing function', () => {
      expect(normalize({ exception: [{ type: 'E', stacktrace: { frames: [frames[0], frames[3]] } }] }).culprit).toBe('node_modules/pg in query');
      expect(normalize({ exception: [{ type: 'E', stacktrace: { frames: [{ filename: 'x.py' }] } }] }).culprit).toBe('x.py in ?');
    });

    it('uses the last exception that has a stack trace', () => {
      const event = normalize({ exception: [{ type: 'Cause', stacktrace: { frames: [frames[1]] } }, { type: 'Wrapper' }] });
      expect(event.culprit).toBe('src/users.ts in loadUser');
    });

    it('falls back to the request URL, then to nothing', () => {
      expect(normalize({ request: { url: 'https://x.test/a' } }).culprit).toBe('https://x.test/a');
      expect(normalize({ exception: [{ type: 'E', stacktrace: { frames: [{ function: 'anonymous' }] } }] }).culprit).toBe('');
    });

    it('honours a legacy culprit sent by old clients, bounded', () => {
      expect(normalize({ culprit: 'views.index', transaction: 't' }).culprit).toBe('views.index');
      expect(normalize({ culprit: 'c'.repeat(500) }).culprit).toHaveLength(200);
    });
  });

  describe('tags', () => {
    it('accepts an object or a list of pairs and stringifies scalars', () => {
      expect(normalize({ tags: { a: 'x', n: 1.5, b: true } }).tags).toEqual([
        ['a', 'x'],
        ['n', '1.5'],
        ['b', 'true'],
      ]);
      expect(
        normalize({
          tags: [
            ['a', 'x'],
            [5, 'numeric key'],
            ['b', 2],
          ],
        }).tags,
      ).toEqual([
        ['a', 'x'],
        ['b', '2'],
      ]);
    });

    it('drops non-string keys, empty keys and values, objects, nulls and duplicates', () => {
      expect(
        normalize({
          tags: [['ok', 'v'], 'flat', ['ok', 'again'], ['', 'v'], ['empty', ''], ['obj', { a: 1 }], ['nil', null], [null, 'v'], ['short'], []],
        }).tags,
      ).toEqual([['ok', 'v']]);
      expect(normalize({ tags: { nested: { a: 1 }, list: [1], nan: Number.NaN } }).tags).toEqual([]);
    });

    it('truncates keys and values to 200 characters and bounds the count', () => {
      const [[key, value]] = normalize({ tags: { ['k'.repeat(300)]: 'v'.repeat(300) } }).tags;
      expect(key).toHaveLength(200);
      expect(value).toHaveLength(200);
      const many = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`t${index}`, 'v']));
      expect(normalize({ tags: many }).tags).toHaveLength(EVENT_LIMITS.maxTags);
    });
  });

  describe('user', () => {
    it('reads the fields and replaces {{auto}} with the client address', () => {
      expect(
        normalize(
          {
            user: {
              id: 'u1',
              email: 'a@b.c',
              username: 'ada',
              name: 'Ada L',
              ip_address: '{{auto}}',
              geo: { country_code: 'GB', city: 'London', region: 'England' },
            },
          },
          { clientIp: '2001:db8::1' },
        ).user,
      ).toEqual({
        id: 'u1',
        email: 'a@b.c',
        username: 'ada',
        name: 'Ada L',
        ipAddress: '2001:db8::1',
        geo: { countryCode: 'GB', city: 'London', region: 'England' },
      });
    });

    it('drops {{auto}} without a client address, and invalid addresses', () => {
      expect(normalize({ user: { id: 1, ip_address: '{{auto}}' } }).user).toEqual({ id: '1' });
      expect(normalize({ user: { id: 1, ip_address: '{{auto}}' } }, { clientIp: 'not-an-ip' }).user).toEqual({ id: '1' });
      expect(normalize({ user: { id: 1, ip_address: '999.1.1.1' } }).user).toEqual({ id: '1' });
      expect(normalize({ user: { ip_address: '198.51.100.7' } }).user).toEqual({ ipAddress: '198.51.100.7' });
    });

    it('is undefined when nothing usable is left', () => {
      expect(normalize({ user: {} }).user).toBeUndefined();
      expect(normalize({ user: { id: null, email: 5, geo: 'x' } }).user).toBeUndefined();
      expect(normalize({ user: { geo: { city: 3 } } }).user).toBeUndefined();
      expect(normalize({ user: [] }).user).toBeUndefined();
    });
  });

  describe('release, environment, dist and names', () => {
    it('keeps valid values', () => {
      expect(normalize({ release: ' backend@2.0.0+abc ', environment: 'prod-eu', dist: '42', server_name: 'host', logger: 'django' })).toMatchObject({
        release: 'backend@2.0.0+abc',
        environment: 'prod-eu',
        dist: '42',
        serverName: 'host',
        logger: 'django',
      });
      expect(normalize({ release: 7 }).release).toBe('7');
    });

    it('drops releases Sentry refuses', () => {
      for (const release of ['', '.', '..', 'latest', 'a/b', 'a\\b', 'line\nbreak', 'x'.repeat(201)]) {
        expect(normalize({ release }).release).toBeUndefined();
      }
    });

    it('defaults invalid environments to production', () => {
      for (const environment of ['', 'a/b', 'None', 'x'.repeat(65), 'tab\there']) {
        expect(normalize({ environment }).environment).toBe('production');
      }
    });
  });

  describe('request', () => {
    it('accepts headers as pairs, query as object or pairs, and keeps data', () => {
      expect(
        normalize({
          request: {
            method: 'post',
            headers: [
              ['Content-Type', 'application/json'],
              ['X-Num', 5],
            ],
            query_string: { q: 'search' },
            data: { name: 'ada', nested: { deep: true } },
          },
        }).request,
      ).toEqual({
        method: 'POST',
        headers: [
          ['Content-Type', 'application/json'],
          ['X-Num', '5'],
        ],
        query: [['q', 'search']],
        data: { name: 'ada', nested: { deep: true } },
        inferredContentType: 'application/json',
      });
      expect(
        normalize({
          request: {
            query: [
              ['a', '1'],
              ['b', '2'],
            ],
          },
        }).request,
      ).toEqual({
        query: [
          ['a', '1'],
          ['b', '2'],
        ],
      });
      expect(normalize({ request: { query_string: '?x=1&y=%20' } }).request?.query).toEqual([
        ['x', '1'],
        ['y', ' '],
      ]);
    });

    it('replaces the NUL that percent-decoding a query string makes, which PostgreSQL cannot store', () => {
      expect(normalize({ request: { query_string: 'a%00=b%00c&d=%ED%A0%80' } }).request?.query).toEqual([
        ['a\uFFFD', 'b\uFFFDc'],
        ['d', '\uFFFD\uFFFD\uFFFD'],
      ]);
    });

    it('joins repeated header values and drops unusable ones', () => {
      expect(normalize({ request: { headers: { Accept: ['a', 'b'], Bad: { x: 1 }, '': 'v' } } }).request).toEqual({ headers: [['Accept', 'a, b']] });
    });

    it('drops odd methods and empty requests', () => {
      expect(normalize({ request: { method: 'GET /x' } }).request).toBeUndefined();
      expect(normalize({ request: { url: 5, headers: 'x', data: null } }).request).toBeUndefined();
    });
  });

  describe('sdk, fingerprint, contexts, extra', () => {
    it('keeps sdk name, version, integrations and packages', () => {
      expect(normalize({ sdk: { name: 'sentry.python', version: '2.0.0', packages: [] } }).sdk).toEqual({ name: 'sentry.python', version: '2.0.0' });
      expect(
        normalize({
          sdk: { name: 'sentry.javascript.node', integrations: ['Http', 3, ''], packages: [{ name: 'npm:@sentry/node', version: '8.0.0' }, { name: 'x' }] },
        }).sdk,
      ).toEqual({ name: 'sentry.javascript.node', integrations: ['Http'], packages: [{ name: 'npm:@sentry/node', version: '8.0.0' }] });
      expect(normalize({ sdk: { name: 1 } }).sdk).toBeUndefined();
    });

    it('keeps string and scalar fingerprint entries', () => {
      expect(normalize({ fingerprint: ['{{ default }}', 'db', 42, null, {}, ''] }).fingerprint).toEqual(['{{ default }}', 'db', '42']);
      expect(normalize({ fingerprint: [] }).fingerprint).toBeUndefined();
      expect(normalize({ fingerprint: [null] }).fingerprint).toBeUndefined();
      expect(normalize({ fingerprint: Array.from({ length: 100 }, (_, index) => `f${index}`) }).fingerprint).toHaveLength(EVENT_LIMITS.fingerprintEntries);
    });

    it('passes contexts and extra through, bounded', () => {
      let deep: Record<string, unknown> = { leaf: 'x' };
      for (let level = 0; level < 20; level++) deep = { deep };
      const event = normalize({
        contexts: { os: { name: 'Linux' }, app: { big: 's'.repeat(10_000), list: Array.from({ length: 500 }, (_, index) => index) }, bad: 'not an object' },
        extra: { deep, fn: undefined },
      });
      expect(event.contexts?.os).toEqual({ name: 'Linux' });
      const app = event.contexts?.app as Record<string, unknown[]>;
      expect(app.big).toHaveLength(EVENT_LIMITS.dataString);
      expect(app.list).toHaveLength(EVENT_LIMITS.dataArray);
      expect(event.contexts).not.toHaveProperty('bad');
      expect(JSON.stringify(event.extra)).toContain('[Object]');
      expect(JSON.stringify(event.extra)).not.toContain('leaf');
    });

    it('keeps a __proto__ key as data without touching prototypes', () => {
      const raw = JSON.parse('{"extra":{"__proto__":{"polluted":true},"ok":1}}');
      const event = normalize(raw);
      expect(Object.getPrototypeOf(event.extra)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(event.extra!, '__proto__')).toBe(true);
      expect((event.extra as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('breadcrumbs', () => {
    const crumb = (index: number) => ({ timestamp: 1714564700 + index, category: 'console', message: `line ${index}`, level: 'log', type: 'default' });

    it('keeps them as sent, oldest first, with Sentry levels', () => {
      const event = normalize({
        breadcrumbs: {
          values: [
            {
              timestamp: 1714564700.5,
              category: 'http',
              type: 'http',
              level: 'warn',
              data: { url: '/api', status_code: 500 },
              event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
            },
            { timestamp: '2024-05-01T11:58:21Z', message: { not: 'a string' } },
            { timestamp: { bad: true }, message: 'no usable time' },
            'not a crumb',
            {},
          ],
        },
      });
      expect(event.breadcrumbs).toEqual([
        {
          timestamp: 1714564700.5,
          type: 'http',
          category: 'http',
          level: 'warning',
          data: { url: '/api', status_code: 500 },
          eventId: '9ec79c33ec9942ab8353589fcb2e04dc',
        },
        { timestamp: '2024-05-01T11:58:21Z', message: '{"not":"a string"}' },
        { message: 'no usable time' },
      ]);
    });

    it('does not copy data that is already within bounds', () => {
      const data = { url: '/api', nested: { list: [1, 2, 3] } };
      const [kept] = normalize({ breadcrumbs: [{ data }] }).breadcrumbs ?? [];
      expect(kept.data).toBe(data);
      const trimmed = normalize({ breadcrumbs: [{ data: { ...data, long: 'x'.repeat(5000) } }] }).breadcrumbs?.[0].data;
      expect(trimmed).toEqual({ ...data, long: 'x'.repeat(EVENT_LIMITS.smallData.string) });
    });

    it('accepts a bare list and keeps only the newest 100', () => {
      const event = normalize({ breadcrumbs: Array.from({ length: 150 }, (_, index) => crumb(index)) });
      expect(event.breadcrumbs).toHaveLength(EVENT_LIMITS.maxBreadcrumbs);
      expect(event.breadcrumbs?.[0].message).toBe('line 50');
      expect(event.breadcrumbs?.at(-1)).toMatchObject({ message: 'line 149', level: 'info', category: 'console' });
    });

    it('bounds each crumb: message length, and the depth, width and strings of its data', () => {
      let deep: Record<string, unknown> = { leaf: 'x' };
      for (let level = 0; level < 10; level++) deep = { deep };
      const [kept] =
        normalize({
          breadcrumbs: [
            {
              message: 'm'.repeat(20_000),
              category: 'c'.repeat(500),
              data: {
                deep,
                long: 'd'.repeat(5000),
                list: Array.from({ length: 80 }, (_, index) => index),
                ...Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`k${index}`, index])),
              },
            },
          ],
        }).breadcrumbs ?? [];
      expect(kept.message).toHaveLength(EVENT_LIMITS.message);
      expect(kept.category).toHaveLength(EVENT_LIMITS.shortField * 2);
      expect(Object.keys(kept.data ?? {})).toHaveLength(EVENT_LIMITS.smallData.keys);
      expect(kept.data?.long).toHaveLength(EVENT_LIMITS.smallData.string);
      expect(kept.data?.list).toHaveLength(EVENT_LIMITS.smallData.array);
      expect(JSON.stringify(kept.data)).toContain('[Object]');
      expect(JSON.stringify(kept.data)).not.toContain('leaf');
    });

    it('is undefined when none is usable', () => {
      expect(normalize({ breadcrumbs: { values: [null, 1, {}] } }).breadcrumbs).toBeUndefined();
      expect(normalize({ breadcrumbs: 'x' }).breadcrumbs).toBeUndefined();
    });
  });

  describe('the rest of what SDKs send', () => {
    it('keeps message params with their template', () => {
      const event = normalize({ logentry: { message: 'User %s failed %d times', params: ['bob', 3] } });
      expect(event).toMatchObject({ message: 'User bob failed 3 times', messageTemplate: 'User %s failed %d times', messageParams: ['bob', 3] });
      expect(normalize({ message: 'plain' })).not.toHaveProperty('messageParams');
    });

    it('keeps every part of an exception and its frames', () => {
      const [exception] = normalize({
        exception: {
          values: [
            {
              type: 'Error',
              value: 'boom',
              thread_id: 7,
              mechanism: {
                type: 'generic',
                handled: true,
                synthetic: false,
                description: 'd',
                help_link: 'https://example.com/help',
                data: { signal: 11 },
                meta: { errno: { number: 2 } },
                exception_id: 0,
                is_exception_group: false,
                junk: 1,
              },
              stacktrace: {
                frames_omitted: [2, 5],
                registers: { rip: '0x1' },
                frames: [
                  {
                    function: 'run',
                    module: 'app.jobs',
                    package: 'app.jar',
                    platform: 'java',
                    in_app: true,
                    vars: { id: 42, user: { name: 'ada' } },
                    lineno: 3,
                  },
                  { instruction_addr: '0x10', symbol_addr: '0x8', addr_mode: 'abs', trust: 'cfi' },
                ],
              },
            },
          ],
        },
      }).exceptions;
      expect(exception).toEqual({
        type: 'Error',
        value: 'boom',
        threadId: 7,
        mechanism: {
          type: 'generic',
          handled: true,
          synthetic: false,
          description: 'd',
          helpLink: 'https://example.com/help',
          data: { signal: 11 },
          meta: { errno: { number: 2 } },
          exceptionId: 0,
          isExceptionGroup: false,
        },
        stacktrace: {
          framesOmitted: [2, 5],
          registers: { rip: '0x1' },
          frames: [
            { function: 'run', module: 'app.jobs', package: 'app.jar', platform: 'java', inApp: true, vars: { id: 42, user: { name: 'ada' } }, lineno: 3 },
            { instructionAddr: '0x10', symbolAddr: '0x8', addrMode: 'abs', trust: 'cfi' },
          ],
        },
      });
    });

    it('keeps threads, an event-level stack trace, a template and debug meta', () => {
      const event = normalize({
        threads: {
          values: [
            { id: 1, name: 'main', crashed: true, current: true, main: true, stacktrace: { frames: [{ function: 'main' }] } },
            null,
            { id: 'worker-2', state: 'WAITING' },
          ],
        },
        stacktrace: { frames: [{ function: 'log', filename: 'app.js' }] },
        template: { filename: 'page.html', lineno: 3, context_line: '{{ user.name }}', pre_context: ['<p>'] },
        debug_meta: { images: [{ type: 'macho', image_addr: '0x1000', debug_id: 'abc' }, 'bad'], sdk_info: { sdk_name: 'iOS' }, is_debug_build: false },
      });
      expect(event.threads).toEqual([
        { id: 1, name: 'main', crashed: true, current: true, main: true, stacktrace: { frames: [{ function: 'main' }] } },
        { id: 'worker-2', state: 'WAITING' },
      ]);
      expect(event.stacktrace).toEqual({ frames: [{ function: 'log', filename: 'app.js' }] });
      expect(event.template).toEqual({ filename: 'page.html', lineno: 3, contextLine: '{{ user.name }}', preContext: ['<p>'] });
      expect(event.debugMeta).toEqual({
        images: [{ type: 'macho', image_addr: '0x1000', debug_id: 'abc' }],
        sdkInfo: { sdk_name: 'iOS' },
        isDebugBuild: false,
      });
      expect(normalize({ threads: { values: Array.from({ length: 300 }, (_, id) => ({ id })) } }).threads).toHaveLength(EVENT_LIMITS.maxThreads);
    });

    it('keeps modules as name to version, and security reports as sent', () => {
      const event = normalize({
        modules: { express: '4.18.2', count: 3, bad: { x: 1 } },
        csp: { document_uri: 'https://example.com', violated_directive: 'script-src' },
        hpkp: 'x',
      });
      expect(event.modules).toEqual({ express: '4.18.2', count: '3' });
      expect(event.securityReports).toEqual({ csp: { document_uri: 'https://example.com', violated_directive: 'script-src' } });
    });

    it('moves unknown user fields into user.data, as Relay does', () => {
      expect(normalize({ user: { id: 1, plan: 'pro', data: { seats: 3 }, segment: 'x', geo: { subdivision: 'Bavaria' } } }).user).toEqual({
        id: '1',
        geo: { subdivision: 'Bavaria' },
        data: { seats: 3, plan: 'pro' },
      });
    });

    it('splits the URL, takes cookies out of the headers and reads the body as Relay does', () => {
      const request = normalize({
        request: {
          url: 'https://shop.example.com/cart?item=1&qty=2#summary',
          headers: { Cookie: 'session=abc; theme=dark', 'Content-Type': 'text/plain; charset=utf-8' },
          data: 'a=1&b=two',
          env: { REMOTE_ADDR: '10.0.0.1' },
        },
      }).request;
      expect(request).toEqual({
        url: 'https://shop.example.com/cart',
        query: [
          ['item', '1'],
          ['qty', '2'],
        ],
        fragment: 'summary',
        headers: [['Content-Type', 'text/plain; charset=utf-8']],
        cookies: [
          ['session', 'abc'],
          ['theme', 'dark'],
        ],
        data: { a: '1', b: 'two' },
        inferredContentType: 'application/x-www-form-urlencoded',
        env: { REMOTE_ADDR: '10.0.0.1' },
      });
      const sent = normalize({
        request: { url: 'https://x.example/p?from=url', query_string: 'from=field', cookies: { a: 'b' }, headers: [['cookie', 'c=d']], data: '{"id": 5}' },
      }).request;
      expect(sent).toMatchObject({
        url: 'https://x.example/p',
        query: [['from', 'field']],
        cookies: [['a', 'b']],
        data: { id: 5 },
        inferredContentType: 'application/json',
      });
      expect(sent).not.toHaveProperty('headers');
      expect(normalize({ request: { data: 'just text', headers: { 'content-type': 'Text/Plain' } } }).request).toEqual({
        data: 'just text',
        headers: [['content-type', 'Text/Plain']],
        inferredContentType: 'text/plain',
      });
    });
  });

  it('never stores more than it was sent, but for a few kilobytes of derived fields', () => {
    // The accept path refuses events over 1 MiB; what is stored stays within that and a constant.
    fc.assert(
      fc.property(
        fc.object({ maxDepth: 4, values: [fc.string(), fc.integer(), fc.boolean(), fc.constant(null)] }),
        fc.jsonValue({ maxDepth: 4 }),
        (extra, anything) => {
          const raw = {
            ...nodeEvent,
            extra,
            contexts: { runtime: { name: 'node' }, other: extra },
            breadcrumbs: [{ timestamp: 1714564700, data: extra, message: JSON.stringify(anything) }],
            request: { ...nodeEvent.request, data: anything },
            user: { ...nodeEvent.user, ...extra },
          };
          expect(JSON.stringify(normalize(raw)).length).toBeLessThanOrEqual(JSON.stringify(raw).length + 4096);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never returns a shape that JSON cannot store', () => {
    const event = normalize(nodeEvent);
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });
});

describe('truncate', () => {
  it('does not split a surrogate pair', () => {
    expect(truncate('ab😀cd', 3)).toBe('ab');
    expect(truncate('ab😀cd', 4)).toBe('ab😀');
    expect(truncate('short', 10)).toBe('short');
  });
});
