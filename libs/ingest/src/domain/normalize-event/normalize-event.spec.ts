import * as fc from 'fast-check';
import { EnvelopeError } from '../envelope-error';
import { truncate } from '.';
import { RECEIVED, normalize, nodeEvent } from './normalize-event.fixtures';

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
        // Sentry's tags of the runtime context the SDK sent.
        ['runtime', 'node v20.11.0'],
        ['runtime.name', 'node'],
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
