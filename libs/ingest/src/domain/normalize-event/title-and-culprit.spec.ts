import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
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
});
