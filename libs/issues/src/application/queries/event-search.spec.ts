import fc from 'fast-check';
import { DomainError } from '@faultline/kernel';
import { parseEventSearch, validateEventSearch } from './event-search';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const parse = (fields: string[], query = '', sort: string[] = []) => parseEventSearch({ fields, query, sort, now: NOW });

describe('parseEventSearch', () => {
  it('groups when an aggregate is selected, and types each column as Sentry does', () => {
    const search = parse(['issue', 'count()', 'count_unique(user)', 'last_seen()', 'tags[browser]', 'issue.id']);
    expect(search.grouped).toBe(true);
    expect(search.columns.map((column) => [column.name, column.type])).toEqual([
      ['issue', 'string'],
      ['count()', 'integer'],
      ['count_unique(user)', 'integer'],
      ['last_seen()', 'date'],
      ['tags[browser]', 'string'],
      ['issue.id', 'integer'],
    ]);
    expect(parse(['id', 'title']).grouped).toBe(false);
  });

  it('sorts by a selected field or an aggregate by its alias', () => {
    const search = parse(['issue', 'count()', 'count_unique(user)'], '', ['-count', 'count_unique_user']);
    expect(search.orderBy.map(({ column, descending }) => [column.name, descending])).toEqual([
      ['count()', true],
      ['count_unique(user)', false],
    ]);
    expect(() => parse(['issue'], '', ['-timestamp'])).toThrow(/Cannot sort by timestamp/);
  });

  it('reads filters in Sentry syntax', () => {
    expect(parse(['id'], '!level:error browser:[Chrome, "Fire fox"] has:region timestamp:>2026-03-01 "a b" c*').filters).toEqual([
      { kind: 'match', field: { kind: 'field', name: 'level' }, negated: true, values: [{ equals: 'error' }] },
      { kind: 'match', field: { kind: 'tag', key: 'browser' }, negated: false, values: [{ equals: 'Chrome' }, { equals: 'Fire fox' }] },
      { kind: 'has', field: { kind: 'tag', key: 'region' }, negated: false },
      { kind: 'compare', field: { kind: 'field', name: 'timestamp' }, operator: '>', value: '2026-03-01T00:00:00.000Z' },
      { kind: 'text', negated: false, like: '%a b%' },
      { kind: 'text', negated: false, like: 'c%' },
    ]);
    expect(parse(['issue', 'count()'], 'count():>=10').filters).toEqual([{ kind: 'having', aggregate: { fn: 'count' }, operator: '>=', value: '10' }]);
    expect(parse(['id'], 'project.id:[1, 2]').filters).toEqual([
      { kind: 'match', field: { kind: 'field', name: 'project.id' }, negated: false, values: [{ equals: '1' }, { equals: '2' }] },
    ]);
  });

  it.each([
    [['stack.filename'], '', 'Unsupported field: stack.filename'],
    [['avg(duration)'], '', 'Unsupported function: avg(duration)'],
    [['p95()'], '', 'Unsupported function: p95()'],
    [['count_unique(http.url)'], '', 'Unsupported field: http.url'],
    [['id'], 'os.version:14', 'Unsupported field: os.version'],
    [['id'], 'count():>1', 'aggregate'],
    [[], '', 'No columns'],
  ])('refuses %j %s, naming it', (fields, query, message) => {
    expect(() => parse(fields, query)).toThrow(message);
  });

  it('answers any query with a search or a DomainError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (query) => {
        try {
          parse(['issue', 'count()'], query);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
      }),
    );
  });
});

describe('validateEventSearch (Sentry events/validate)', () => {
  it('judges each field, the query and each sort apart, with the messages of the search', () => {
    const result = validateEventSearch({ fields: ['title', 'count()', 'p99(nonsense)'], query: 'os.version:14', sort: ['-count()', 'message'], now: NOW });
    expect(result.field).toEqual([
      { name: 'title', valid: true, attrType: 'string', error: null },
      { name: 'count()', valid: true, attrType: 'number', error: null },
      { name: 'p99(nonsense)', valid: false, attrType: null, error: expect.stringContaining('p99(nonsense)') },
    ]);
    expect(result.query).toEqual({ valid: false, error: expect.stringContaining('os.version'), fields: [] });
    expect(result.orderby.map((entry) => [entry.name, entry.valid])).toEqual([
      ['-count()', true],
      ['message', false],
    ]);
  });

  it('answers any search with a judgement, never an error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
        fc.string({ maxLength: 100 }),
        fc.array(fc.string({ maxLength: 20 }), { maxLength: 2 }),
        (fields, query, sort) => {
          const result = validateEventSearch({ fields, query, sort, now: NOW });
          expect(result.field).toHaveLength(new Set(fields).size);
        },
      ),
    );
  });
});
