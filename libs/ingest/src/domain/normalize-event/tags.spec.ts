import { EVENT_LIMITS } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
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
});
