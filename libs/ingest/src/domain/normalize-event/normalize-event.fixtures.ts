import { newHexId } from '@faultline/kernel';
import { normalizeEvent } from './normalize-event';
import type { NormalizeContext } from './types';

/** The normaliser's specs share these: the arrival time, a caller minting each new id, an SDK event. */
export const RECEIVED = new Date('2024-05-01T12:00:00.000Z');
const context = { receivedAt: RECEIVED };
// The processor mints an event's new id; each call here does too.
export const normalize = (raw: unknown, extra: Partial<NormalizeContext> = {}) => normalizeEvent(raw, { ...context, newEventId: newHexId(), ...extra });

/** What @sentry/node 8 sends for `throw new TypeError("Cannot read properties of undefined")`. */
export const nodeEvent = {
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
