import type { ErrorEventRow } from '../infrastructure/issue-read-model.repository';
import { serializeEvent } from './events.serializers';

const row = (data: Record<string, unknown>): ErrorEventRow => ({
  event_id: 'a'.repeat(32),
  issue_id: '7',
  project_id: '3',
  occurred_at: new Date('2024-05-01T12:00:00.000Z'),
  received_at: new Date('2024-05-01T12:00:01.000Z'),
  data: { title: 'Error: boom', platform: 'node', ...data },
  grouping_hash: 'f'.repeat(32),
});

const entry = (data: Record<string, unknown>, type: string) =>
  serializeEvent(row(data)).entries.find((candidate) => candidate.type === type)?.data as Record<string, unknown>;

describe('serializeEvent', () => {
  it('orders entries as Sentry does: by each interface display score', () => {
    const event = serializeEvent(
      row({
        debugMeta: { images: [{ type: 'elf' }] },
        request: { url: 'https://example.com' },
        template: { filename: 'a.html', lineno: 1, contextLine: 'x' },
        breadcrumbs: [{ message: 'm' }],
        securityReports: { csp: { document_uri: 'https://example.com' } },
        threads: [{ id: 1 }],
        stacktrace: { frames: [{ function: 'f' }] },
        exceptions: [{ type: 'Error', value: 'boom' }],
        message: 'hello',
      }),
    );
    expect(event.entries.map((candidate) => candidate.type)).toEqual([
      'message',
      'exception',
      'stacktrace',
      'threads',
      'csp',
      'breadcrumbs',
      'template',
      'request',
      'debugmeta',
    ]);
  });

  it('fills in what a breadcrumb left out with Sentry defaults', () => {
    expect(
      entry(
        {
          breadcrumbs: [
            { message: 'clicked' },
            { timestamp: 1714564740.25, type: 'http', category: 'fetch', level: 'error', data: { status_code: 500 }, eventId: 'b'.repeat(32) },
          ],
        },
        'breadcrumbs',
      ),
    ).toEqual({
      values: [
        { type: 'default', timestamp: null, level: 'info', message: 'clicked', category: null, data: null, event_id: null },
        {
          type: 'http',
          timestamp: '2024-05-01T11:59:00.250Z',
          level: 'error',
          message: null,
          category: 'fetch',
          data: { status_code: 500 },
          event_id: 'b'.repeat(32),
        },
      ],
    });
    const times = ['2024-05-01T11:59:00Z', '2024-05-01T13:59:00+02:00', '2024-05-01T11:59:00', '1714564740', 'yesterday'].map(
      (timestamp) => (entry({ breadcrumbs: [{ timestamp }] }, 'breadcrumbs').values as Array<{ timestamp: string | null }>)[0].timestamp,
    );
    expect(times).toEqual(['2024-05-01T11:59:00.000Z', '2024-05-01T11:59:00.000Z', '2024-05-01T11:59:00.000Z', '2024-05-01T11:59:00.000Z', null]);
  });

  it('shows frames with their variables, package and source lines, and hasSystemFrames as Sentry computes it', () => {
    const exception = entry(
      {
        exceptions: [
          {
            type: 'Error',
            threadId: 3,
            mechanism: { type: 'onerror', handled: false, helpLink: 'https://example.com', data: { x: 1 } },
            stacktrace: {
              framesOmitted: [1, 4],
              frames: [
                { function: 'lib', package: 'lib.so', instructionAddr: '0x1', addrMode: 'rel:0' },
                { function: 'run', inApp: true, lineno: 10, preContext: ['a', 'b'], contextLine: 'c', postContext: ['d'], vars: { id: 1 } },
              ],
            },
          },
        ],
      },
      'exception',
    );
    const [value] = exception.values as Array<Record<string, any>>;
    expect(exception.hasSystemFrames).toBe(true);
    expect(value.threadId).toBe(3);
    expect(value.mechanism).toEqual({ type: 'onerror', handled: false, help_link: 'https://example.com', data: { x: 1 } });
    expect(value.stacktrace).toMatchObject({ framesOmitted: [1, 4], hasSystemFrames: true });
    expect(value.stacktrace.frames[0]).toMatchObject({
      function: 'lib',
      package: 'lib.so',
      instructionAddr: '0x1',
      addrMode: 'rel:0',
      inApp: false,
      context: [],
      vars: null,
    });
    expect(value.stacktrace.frames[1]).toMatchObject({
      function: 'run',
      inApp: true,
      vars: { id: 1 },
      context: [
        [8, 'a'],
        [9, 'b'],
        [10, 'c'],
        [11, 'd'],
      ],
    });
    expect(entry({ exceptions: [{ type: 'E', stacktrace: { frames: [{ function: 'f', inApp: false }] } }] }, 'exception').hasSystemFrames).toBe(false);
  });

  it('shows a message with its template and params', () => {
    expect(entry({ message: 'User bob failed', messageTemplate: 'User %s failed', messageParams: ['bob'] }, 'message')).toEqual({
      formatted: 'User bob failed',
      message: 'User %s failed',
      params: ['bob'],
    });
    expect(entry({ message: 'plain' }, 'message')).toEqual({ formatted: 'plain', message: null, params: null });
  });

  it('shows threads, template and debug meta in Sentry shapes', () => {
    expect(
      entry({ threads: [{ id: 1, name: 'main', crashed: true, main: true, stacktrace: { frames: [{ function: 'f' }] } }, { id: 'w' }] }, 'threads'),
    ).toEqual({
      values: [
        {
          id: 1,
          main: true,
          current: false,
          crashed: true,
          name: 'main',
          stacktrace: expect.objectContaining({ frames: [expect.objectContaining({ function: 'f' })] }),
          rawStacktrace: null,
        },
        { id: 'w', current: false, crashed: false, name: null, stacktrace: null, rawStacktrace: null },
      ],
    });
    expect(entry({ template: { filename: 'page.html', lineno: 2, preContext: ['<p>'], contextLine: '{{ x }}' } }, 'template')).toEqual({
      lineNo: 2,
      filename: 'page.html',
      context: [
        [1, '<p>'],
        [2, '{{ x }}'],
      ],
    });
    expect(entry({ debugMeta: { images: [{ type: 'elf' }], isDebugBuild: false } }, 'debugmeta')).toEqual({ images: [{ type: 'elf' }], is_debug_build: false });
  });

  it('shows contexts with their type, extra as context, modules as packages, and user data', () => {
    const event = serializeEvent(
      row({
        contexts: { runtime: { name: 'node' }, cart: { items: 3, none: null }, client_os: { type: 'os', name: 'Linux' }, bad: 'x' },
        extra: { attempt: 2 },
        modules: { express: '4.18.2' },
        user: { id: '7', geo: { countryCode: 'DE', subdivision: 'Bavaria' }, data: { plan: 'pro' } },
      }),
    );
    expect(event.contexts).toEqual({
      runtime: { name: 'node', type: 'runtime' },
      cart: { items: 3, type: 'default' },
      client_os: { name: 'Linux', type: 'os' },
    });
    expect(event.context).toEqual({ attempt: 2 });
    expect(event.packages).toEqual({ express: '4.18.2' });
    expect(event.user).toEqual({
      id: '7',
      email: null,
      username: null,
      ip_address: null,
      name: null,
      geo: { country_code: 'DE', subdivision: 'Bavaria' },
      data: { plan: 'pro' },
    });
    expect(event.fingerprints).toEqual(['f'.repeat(32)]);
  });

  it('reads events stored before every part was kept, and the oldest snake_case ones', () => {
    const event = serializeEvent(
      row({
        exception: {
          values: [
            { type: 'Error', stacktrace: { frames: [{ function: 'f', in_app: true, lineno: 2, abs_path: '/a.js', context_line: 'x', pre_context: ['w'] }] } },
          ],
        },
        request: { url: 'https://example.com', headers: [['Cookie', 'a=b']] },
        user: { id: '1', ip_address: '10.0.0.1', geo: { country_code: 'AT' } },
      }),
    );
    expect(event.entries.map((candidate) => candidate.type)).toEqual(['exception', 'request']);
    const [value] = (event.entries[0].data as { values: Array<Record<string, any>> }).values;
    expect(value.stacktrace.frames[0]).toMatchObject({
      function: 'f',
      inApp: true,
      lineNo: 2,
      absPath: '/a.js',
      context: [
        [1, 'w'],
        [2, 'x'],
      ],
    });
    expect(event.entries[1].data).toMatchObject({ cookies: [], fragment: null, env: null, inferredContentType: null });
    expect(event.user).toMatchObject({ ip_address: '10.0.0.1', geo: { country_code: 'AT' }, data: null });
    expect(event).toMatchObject({ contexts: {}, context: {}, packages: {} });
  });

  it("moves data scrubbing's remarks from the stored event's paths to the shown fields' paths", () => {
    const filtered = { '': { rem: [['@password:filter', 's', 0, 10]], len: 5 } };
    const event = serializeEvent(
      row({
        extra: { password: '[Filtered]' },
        tags: [
          ['zeta', '[Filtered]'],
          ['alpha', 'a'],
        ],
        user: { id: '1' },
        exceptions: [{ type: 'Error', value: 'card [creditcard]' }],
        request: { cookies: [['sessionid', '[Filtered]']] },
        _meta: {
          extra: { password: filtered },
          tags: { 0: { 1: filtered } },
          user: { ipAddress: { '': { rem: [['@anything:remove', 'x']] } } },
          exceptions: { 0: { value: filtered } },
          request: { cookies: { 0: { 1: filtered } } },
        },
      }),
    );
    const shownTags = event.tags.map((tag) => tag.key);
    expect(event._meta).toEqual({
      context: { password: filtered },
      tags: { [shownTags.indexOf('zeta')]: { value: filtered } },
      user: { ip_address: { '': { rem: [['@anything:remove', 'x']] } } },
      entries: {
        0: { data: { values: { 0: { value: filtered } } } },
        1: { data: { cookies: { 0: { 1: filtered } } } },
      },
    });
  });
});
