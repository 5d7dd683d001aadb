import { defaultComponents, groupingHash, normalizeFilename, normalizeMessage } from './grouping';
import { newHexId } from '@faultline/kernel';
import { normalizeEvent } from './normalize-event';

const receivedAt = new Date('2024-05-01T12:00:00.000Z');
const event = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt, newEventId: newHexId() });

interface FrameSpec {
  filename?: string;
  module?: string;
  function?: string;
  lineno?: number;
  colno?: number;
  in_app?: boolean;
}

const thrown = (type: string, value: string, frames: FrameSpec[], extra: Record<string, unknown> = {}) =>
  event({ exception: { values: [{ type, value, stacktrace: { frames } }] }, ...extra });

const appFrames = (line: number): FrameSpec[] => [
  { filename: '/app/node_modules/express/lib/router.js', function: 'handle', lineno: 10, colno: 3, in_app: false },
  { filename: '/app/src/users.ts', function: 'loadUser', lineno: line, colno: 9, in_app: true },
  { filename: '/app/src/server.ts', function: 'handler', lineno: line + 20, colno: 5, in_app: true },
];

describe('groupingHash', () => {
  it('returns 32 lowercase hex and the components it hashed', () => {
    const result = groupingHash(thrown('TypeError', 'x is undefined', appFrames(10)));
    expect(result.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(result.components).toEqual(['type:TypeError', 'frame:/app/src/users.ts | loadUser', 'frame:/app/src/server.ts | handler']);
  });

  it('is deterministic', () => {
    expect(groupingHash(thrown('E', 'v', appFrames(1))).hash).toBe(groupingHash(thrown('E', 'v', appFrames(1))).hash);
  });

  describe('exceptions', () => {
    it('groups the same error from the same place with different line and column numbers', () => {
      const before = thrown('TypeError', "Cannot read properties of undefined (reading 'id')", appFrames(42));
      const after = thrown('TypeError', "Cannot read properties of undefined (reading 'name')", appFrames(57));
      expect(groupingHash(before).hash).toBe(groupingHash(after).hash);
    });

    it('separates different exception types thrown from the same place', () => {
      expect(groupingHash(thrown('TypeError', 'x', appFrames(1))).hash).not.toBe(groupingHash(thrown('RangeError', 'x', appFrames(1))).hash);
    });

    it('separates the same type thrown from different functions', () => {
      const other = appFrames(1).map((frame) => (frame.function === 'loadUser' ? { ...frame, function: 'saveUser' } : frame));
      expect(groupingHash(thrown('TypeError', 'x', appFrames(1))).hash).not.toBe(groupingHash(thrown('TypeError', 'x', other)).hash);
    });

    it('uses only in-app frames, so library frames do not split groups', () => {
      const withMoreLibraryFrames = [{ filename: '/app/node_modules/koa/compose.js', function: 'dispatch', in_app: false }, ...appFrames(1)];
      expect(groupingHash(thrown('E', 'v', appFrames(1))).hash).toBe(groupingHash(thrown('E', 'v', withMoreLibraryFrames)).hash);
    });

    it('uses all frames when none is in-app', () => {
      const frames = [
        { filename: 'a.js', function: 'one' },
        { filename: 'b.js', function: 'two', in_app: false },
      ];
      expect(groupingHash(thrown('E', 'v', frames)).components).toEqual(['type:E', 'frame:a.js | one', 'frame:b.js | two']);
    });

    it('prefers the module over the file name', () => {
      const frames = [{ module: 'app.views', filename: '/srv/releases/123/app/views.py', function: 'index', in_app: true }];
      expect(groupingHash(thrown('KeyError', 'v', frames)).components).toEqual(['type:KeyError', 'frame:app.views | index']);
    });

    it('keeps a group across deploys that change bundle hashes, release folders and cache busters', () => {
      const build = (hash: string, release: string, host: string) => [
        { filename: `https://${host}/static/${release}/js/main.${hash}.chunk.js?v=${hash}#L1`, function: 'render', in_app: true },
      ];
      const first = thrown('Error', 'boom', build('3f9a1c2b', '1.2.3', 'cdn1.example.com'));
      const second = thrown('Error', 'boom', build('a1b2c3d4', '1.2.4', 'cdn2.example.com'));
      expect(groupingHash(first).hash).toBe(groupingHash(second).hash);
      expect(groupingHash(first).components[1]).toBe('frame:/static/<num>/js/main.<hash>.chunk.js | render');
    });

    it('includes every exception of a chain', () => {
      const chained = event({
        exception: {
          values: [
            { type: 'IOError', stacktrace: { frames: [{ filename: 'db.py', function: 'connect', in_app: true }] } },
            { type: 'ServiceError', stacktrace: { frames: [{ filename: 'service.py', function: 'call', in_app: true }] } },
          ],
        },
      });
      expect(groupingHash(chained).components).toEqual(['type:IOError', 'frame:db.py | connect', 'type:ServiceError', 'frame:service.py | call']);
    });

    it('uses the normalised value when an exception has no stack trace', () => {
      const a = event({ exception: [{ type: 'ValueError', value: 'invalid literal 12 for int()' }] });
      const b = event({ exception: [{ type: 'ValueError', value: 'invalid literal 99 for int()' }] });
      const c = event({ exception: [{ type: 'ValueError', value: 'too many values to unpack' }] });
      expect(groupingHash(a).components).toEqual(['type:ValueError', 'value:invalid literal <num> for int()']);
      expect(groupingHash(a).hash).toBe(groupingHash(b).hash);
      expect(groupingHash(a).hash).not.toBe(groupingHash(c).hash);
    });

    it('ignores frames with neither location nor function', () => {
      const result = groupingHash(thrown('E', 'v', [{ lineno: 3 } as FrameSpec, { filename: 'a.js', in_app: true }]));
      expect(result.components).toEqual(['type:E', 'frame:a.js | ?']);
    });
  });

  describe('messages', () => {
    it('groups "User 123 not found" with "User 456 not found"', () => {
      expect(groupingHash(event({ message: 'User 123 not found' })).hash).toBe(groupingHash(event({ message: 'User 456 not found' })).hash);
      expect(groupingHash(event({ message: 'User 123 not found' })).components).toEqual(['message:User <num> not found']);
    });

    it('separates different messages', () => {
      expect(groupingHash(event({ message: 'User 123 not found' })).hash).not.toBe(groupingHash(event({ message: 'Order 123 not found' })).hash);
    });

    it('uses the template when params were sent', () => {
      const a = event({ logentry: { message: 'Payment %s declined', params: ['pay_abc'] } });
      const b = event({ logentry: { message: 'Payment %s declined', params: ['pay_xyz'] } });
      expect(groupingHash(a).hash).toBe(groupingHash(b).hash);
      expect(groupingHash(a).components).toEqual(['message:Payment %s declined']);
    });

    it('groups an event with neither exception nor message into one fallback group', () => {
      expect(groupingHash(event({})).components).toEqual(['fallback:<unlabeled event>']);
      expect(groupingHash(event({})).hash).toBe(groupingHash(event({ level: 'info' })).hash);
    });
  });

  describe('fingerprints', () => {
    it('uses the fingerprint entries instead of the default', () => {
      const a = groupingHash(thrown('TypeError', 'x', appFrames(1), { fingerprint: ['database-unavailable'] }));
      const b = groupingHash(thrown('RangeError', 'y', appFrames(9), { fingerprint: ['database-unavailable'] }));
      expect(a.components).toEqual(['database-unavailable']);
      expect(a.hash).toBe(b.hash);
    });

    it('extends the default with {{ default }}, written with or without spaces', () => {
      const plain = groupingHash(thrown('TypeError', 'x', appFrames(1)));
      const extended = groupingHash(thrown('TypeError', 'x', appFrames(1), { fingerprint: ['{{ default }}', 'tenant-a'] }));
      expect(extended.components).toEqual([...plain.components, 'tenant-a']);
      expect(extended.hash).not.toBe(plain.hash);
      const compact = groupingHash(thrown('TypeError', 'x', appFrames(1), { fingerprint: ['{{default}}', 'tenant-a'] }));
      expect(compact.hash).toBe(extended.hash);
      const otherTenant = groupingHash(thrown('TypeError', 'x', appFrames(1), { fingerprint: ['{{ default }}', 'tenant-b'] }));
      expect(otherTenant.hash).not.toBe(extended.hash);
      // Extended groups still follow the default rules: another type is another group.
      const otherType = groupingHash(thrown('RangeError', 'x', appFrames(1), { fingerprint: ['{{ default }}', 'tenant-a'] }));
      expect(otherType.hash).not.toBe(extended.hash);
    });

    it('equals the default grouping when it is only {{ default }}', () => {
      expect(groupingHash(thrown('E', 'v', appFrames(1), { fingerprint: ['{{ default }}'] })).hash).toBe(groupingHash(thrown('E', 'v', appFrames(1))).hash);
    });

    it('fills in the other Sentry variables and keeps unknown ones literally', () => {
      const result = groupingHash(
        thrown('DbError', 'timeout', appFrames(1), {
          transaction: '/checkout',
          level: 'warning',
          logger: 'db',
          tags: { shard: 's1' },
          fingerprint: [
            '{{ transaction }}',
            '{{ error.type }}',
            '{{type}}',
            '{{ error.value }}',
            '{{ level }}',
            '{{ logger }}',
            '{{ tags.shard }}',
            '{{ tags.none }}',
            '{{ message }}',
            '{{ unknown }}',
          ],
        }),
      );
      expect(result.components).toEqual([
        '/checkout',
        'DbError',
        'DbError',
        'timeout',
        'warning',
        'db',
        's1',
        '<no-value-for-tag-none>',
        '<no-message>',
        '{{ unknown }}',
      ]);
    });

    it('keeps component boundaries unambiguous', () => {
      const a = groupingHash(event({ fingerprint: ['a\nb'] }));
      const b = groupingHash(event({ fingerprint: ['a', 'b'] }));
      expect(a.hash).not.toBe(b.hash);
    });
  });

  it('defaultComponents ignores the fingerprint', () => {
    expect(defaultComponents(event({ message: 'hi', fingerprint: ['x'] }))).toEqual(['message:hi']);
  });
});

describe('normalizeFilename', () => {
  it.each([
    ['/app/src/users.ts', '/app/src/users.ts'],
    ['https://cdn.example.com/assets/app.js?v=123#x', '/assets/app.js'],
    ['app:///dist/main.js', '/dist/main.js'],
    ['webpack://my-app/./src/index.tsx', '/./src/index.tsx'],
    ['C:\\Users\\dev\\app\\main.js', 'C:/Users/dev/app/main.js'],
    ['/static/js/main.3f9a1c2b.chunk.js', '/static/js/main.<hash>.chunk.js'],
    ['/assets/index-DiwrgTda.js', '/assets/index-<hash>.js'],
    ['/assets/index-D8Ayp8Hb.js', '/assets/index-<hash>.js'],
    ['/_next/static/chunks/pages/_app-a1b2c3d4e5f6a7b8.js', '/_next/static/chunks/pages/_app-<hash>.js'],
    ['/static/js/1234.js', '/static/js/<num>.js'],
    ['/releases/20240501120000/app.py', '/releases/<num>/app.py'],
    ['/deploy/v1.2.3/app.py', '/deploy/<num>/app.py'],
    ['/tmp/9ec79c33-ec99-42ab-8353-589fcb2e04dc/job.js', '/tmp/<uuid>/job.js'],
    ['/cache/3f9a1c2b4d5e/handler.js', '/cache/<hex>/handler.js'],
    ['/app/user-service.js', '/app/user-service.js'],
    ['/app/myModule.js', '/app/myModule.js'],
    ['/app/es2015/polyfills.js', '/app/es2015/polyfills.js'],
    ['', ''],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeFilename(input)).toBe(expected);
  });

  it('handles undefined', () => {
    expect(normalizeFilename(undefined)).toBe('');
  });
});

describe('normalizeMessage', () => {
  it.each([
    ['User 123 not found', 'User <num> not found'],
    ['Took 12.5 ms', 'Took <num> ms'],
    ['Object 507f1f77bcf86cd799439011 missing', 'Object <hex> missing'],
    ['Pointer 0xDEADBEEF', 'Pointer <hex>'],
    ['Job 9ec79c33-ec99-42ab-8353-589fcb2e04dc failed', 'Job <uuid> failed'],
    ['Started at 2024-05-01T12:00:00.123Z and failed', 'Started at <date> and failed'],
    ['On 2024-05-01 the batch failed', 'On <date> the batch failed'],
    ['Timeout at 10:42:07', 'Timeout at <time>'],
    ['Mail to ada@example.com bounced', 'Mail to <email> bounced'],
    ['Connection from 203.0.113.9 refused', 'Connection from <ip> refused'],
    ['Connection from 2001:db8::8a2e:370:7334 refused', 'Connection from <ip> refused'],
    ['Fetch https://api.example.com/users/7?x=1 failed', 'Fetch <url> failed'],
    ['(https://a.example/x) and <ops+alerts@example.com>', '(<url> and <<email>>'],
    ['Mail x.ada@example.com and git+ssh://host/repo', 'Mail <email> and <url>'],
    ['Key "user:42" is locked', 'Key <quoted> is locked'],
    ["Column 'email' cannot be null", 'Column <quoted> cannot be null'],
    ["User's profile can't load", "User's profile can't load"],
    ['utf8 and h2 stay', 'utf8 and h2 stay'],
    ['std::vector overflow', 'std::vector overflow'],
    ['  padded  ', 'padded'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeMessage(input)).toBe(expected);
  });

  it('bounds the work on huge messages', () => {
    expect(normalizeMessage('1 '.repeat(100_000)).length).toBeLessThanOrEqual(4096 * 3);
  });
});
