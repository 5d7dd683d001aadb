import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
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
});
