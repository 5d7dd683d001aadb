import { EVENT_LIMITS } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
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
});
