import { EVENT_LIMITS } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
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
});
