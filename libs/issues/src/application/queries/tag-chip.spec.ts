import fc from 'fast-check';
import { tagTerm } from '../../../../../apps/web/client/pages/issues/search';
import { parseEventSearch } from './event-search';
import { parseIssueSearch } from './issue-search';

const NOW = new Date('2026-03-01T12:00:00Z');

/** Tag keys as SDKs send them (Sentry's key characters), with the keys the searches read specially. */
const keys = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/),
  fc.constantFrom(
    'browser.name',
    'os.name',
    'device.family',
    'handled',
    'mechanism',
    'url',
    'server_name',
    'level',
    'is',
    'has',
    'message',
    'timesSeen',
    'release',
    'user',
  ),
);
/** Tag values: trimmed, non-empty, any characters (quotes, backslashes, stars, colons, brackets). */
const values = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.stringMatching(/^[a-z"\\*: ()[\]<>=!-]{1,12}$/),
    fc.constantFrom('id:42', 'a b', '\\', 'x\\', '"', '*', '\\*'),
  )
  .map((value) => value.trim())
  .filter((value) => value !== '');

describe('a tag chip', () => {
  it('searches issues for exactly its tag value', () => {
    fc.assert(
      fc.property(keys, values, (key, value) => {
        const term = tagTerm(key, value) as string;
        const [filter] = parseIssueSearch(term, { now: NOW }).filters;
        if (filter.kind === 'column') expect({ key: filter.column, values: filter.values }).toEqual({ key, values: [{ equals: value }] });
        else expect(filter).toEqual({ kind: 'tag', key, negated: false, values: [{ equals: value }] });
      }),
      { numRuns: 500 },
    );
  });

  it('searches events for exactly its tag value', () => {
    fc.assert(
      fc.property(keys, values, (key, value) => {
        const term = tagTerm(key, value) as string;
        const [filter] = parseEventSearch({ fields: ['id'], query: term, sort: [], now: NOW }).filters;
        expect(filter).toMatchObject({ kind: 'match', negated: false, values: [{ equals: value }] });
        if (filter.kind !== 'match') return;
        expect(filter.field.kind === 'tag' ? filter.field.key : filter.field.name).toBe(key);
      }),
      { numRuns: 500 },
    );
  });

  it('names the derived and context tags as Sentry does, quoting values with spaces or colons', () => {
    expect(tagTerm('browser.name', 'Chrome')).toBe('browser.name:Chrome');
    expect(tagTerm('handled', 'no')).toBe('handled:no');
    expect(tagTerm('url', 'http://localhost:3000/a b')).toBe('url:"http://localhost:3000/a b"');
    expect(tagTerm('user', 'id:42')).toBe('user:"id:42"');
    expect(tagTerm('level', 'error')).toBe('tags[level]:error');
    expect(tagTerm('app.version', '1*')).toBe('tags[app.version]:1\\*');
    expect(tagTerm('a key', 'x')).toBeUndefined();
  });
});
