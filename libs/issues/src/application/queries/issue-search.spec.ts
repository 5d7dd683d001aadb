import fc from 'fast-check';
import { DomainError } from '@faultline/kernel';
import { type IssueSearchContext, type IssueSearchFilter, parseIssueSearch, textMatch } from './issue-search';

const NOW = new Date('2025-03-10T12:00:00.000Z');
const context: IssueSearchContext = { now: NOW, userId: '7' };
const filters = (query: string | undefined, extra: Partial<IssueSearchContext> = {}): readonly IssueSearchFilter[] =>
  parseIssueSearch(query, { ...context, ...extra }).filters;
const error = (query: string, extra: Partial<IssueSearchContext> = {}): string => {
  try {
    parseIssueSearch(query, { ...context, ...extra });
  } catch (caught) {
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).code).toBe('invalid');
    return (caught as DomainError).message;
  }
  throw new Error(`"${query}" parsed`);
};

describe('parseIssueSearch', () => {
  it('reads no query as is:unresolved and an empty one as every issue', () => {
    expect(filters(undefined)).toEqual([{ kind: 'status', negated: false, status: 'unresolved' }]);
    expect(filters('')).toEqual([]);
    expect(filters('   ')).toEqual([]);
  });

  it('reads is: statuses, substatuses and assignment, negated with !', () => {
    expect(filters('is:archived !is:resolved is:regressed is:unassigned !is:assigned')).toEqual([
      { kind: 'status', negated: false, status: 'ignored' },
      { kind: 'status', negated: true, status: 'resolved' },
      { kind: 'substatus', negated: false, substatus: 'regressed' },
      { kind: 'assigned', negated: true },
      { kind: 'assigned', negated: true },
    ]);
    expect(error('is:bogus')).toContain('Invalid value for "is" search, valid values are [');
    expect(error('is:>resolved')).toContain('Invalid value for "is" search');
    expect(error('is:for_review')).toContain('"is:for_review" is not supported');
    expect(error('is:[resolved, unresolved]')).toContain('"in" syntax invalid for "is" search');
  });

  it('reads environment, release and any other key as tags, with lists, quotes, negation and wildcards', () => {
    expect(filters('environment:production !release:shop@4.12.0 region:[eu, "us east"] browser:*Chrome*')).toEqual([
      { kind: 'tag', key: 'environment', negated: false, values: [{ equals: 'production' }] },
      { kind: 'tag', key: 'release', negated: true, values: [{ equals: 'shop@4.12.0' }] },
      { kind: 'tag', key: 'region', negated: false, values: [{ equals: 'eu' }, { equals: 'us east' }] },
      { kind: 'tag', key: 'browser', negated: false, values: [{ like: '%Chrome%' }] },
    ]);
    expect(filters('release:latest firstRelease:latest')).toEqual([
      { kind: 'tag', key: 'release', negated: false, values: [{ latest: true }] },
      { kind: 'first_release', negated: false, values: [{ latest: true }] },
    ]);
    expect(filters('server:"a b" tags[url]:x region:!=eu')).toEqual([
      { kind: 'tag', key: 'server', negated: false, values: [{ equals: 'a b' }] },
      { kind: 'tag', key: 'url', negated: false, values: [{ equals: 'x' }] },
      { kind: 'tag', key: 'region', negated: true, values: [{ equals: 'eu' }] },
    ]);
    expect(filters('user:id:42')).toEqual([{ kind: 'tag', key: 'user', negated: false, values: [{ equals: 'id:42' }] }]);
    expect(filters('region:"" !release:"" tags[env]:""')).toEqual([
      { kind: 'has_tag', key: 'region', negated: true },
      { kind: 'has_tag', key: 'release', negated: false },
      { kind: 'has_tag', key: 'env', negated: true },
    ]);
    expect(filters('level:ERROR is:Resolved')).toEqual([
      { kind: 'column', column: 'level', negated: false, values: [{ equals: 'error' }] },
      { kind: 'status', negated: false, status: 'resolved' },
    ]);
  });

  it('adds the environment parameter as one more condition', () => {
    expect(filters('', { environments: ['production', 'staging'] })).toEqual([
      { kind: 'tag', key: 'environment', negated: false, values: [{ equals: 'production' }, { equals: 'staging' }] },
    ]);
  });

  it("escapes LIKE's own characters and honours escaped stars", () => {
    expect(textMatch('50%_off\\*')).toEqual({ equals: '50%_off*' });
    expect(textMatch('a%b*')).toEqual({ like: 'a\\%b%' });
    expect(textMatch('back\\slash*')).toEqual({ like: 'back\\\\slash%' });
  });

  it('reads assigned: me, none, my_teams, #team, a user id and an e-mail', () => {
    expect(filters('assigned:[me, none] !assigned_to:#backend assigned_or_suggested:carol@acme.test assigned:my_teams assigned:12')).toEqual([
      { kind: 'assignee', negated: false, targets: [{ type: 'user', id: '7' }, { type: 'none' }] },
      { kind: 'assignee', negated: true, targets: [{ type: 'team', slug: 'backend' }] },
      { kind: 'assignee', negated: false, targets: [{ type: 'email', email: 'carol@acme.test' }] },
      { kind: 'assignee', negated: false, targets: [{ type: 'member_teams', userId: '7' }] },
      { kind: 'assignee', negated: false, targets: [{ type: 'user', id: '12' }] },
    ]);
    expect(error('assigned:me', { userId: undefined })).toContain('needs a user token');
  });

  it('compares dates: relative, absolute, whole days and date-times', () => {
    expect(filters('firstSeen:-24h age:+7d lastSeen:>2025-03-01 lastSeen:<=2025-03-02T10:00:00+02:00')).toEqual([
      { kind: 'date', column: 'first_seen', operator: '>=', at: '2025-03-09T12:00:00.000Z' },
      { kind: 'date', column: 'first_seen', operator: '<=', at: '2025-03-03T12:00:00.000Z' },
      { kind: 'date', column: 'last_seen', operator: '>', at: '2025-03-01T00:00:00.000Z' },
      { kind: 'date', column: 'last_seen', operator: '<=', at: '2025-03-02T08:00:00.000Z' },
    ]);
    expect(filters('firstSeen:2025-03-01')).toEqual([
      { kind: 'date', column: 'first_seen', operator: '>=', at: '2025-03-01T00:00:00.000Z' },
      { kind: 'date', column: 'first_seen', operator: '<', at: '2025-03-02T00:00:00.000Z' },
    ]);
    expect(filters('lastSeen:<-1h')).toEqual([{ kind: 'date', column: 'last_seen', operator: '<', at: '2025-03-10T11:00:00.000Z' }]);
    for (const bad of ['firstSeen:yesterday', 'firstSeen:2025-02-30', 'firstSeen:>2025-13-01', 'lastSeen:-5y', 'firstSeen:2025-01-01T25:00:00']) {
      expect(error(bad)).toContain(': Invalid date: ');
    }
    expect(error('!firstSeen:-1d')).toContain('cannot be negated');
  });

  it('compares counts, with k/m/b suffixes and negation', () => {
    expect(filters('timesSeen:>=1k !timesSeen:>10 userCount:[1, 2] times_seen:3')).toEqual([
      { kind: 'number', column: 'times_seen', operator: '>=', values: ['1000'] },
      { kind: 'number', column: 'times_seen', operator: '<=', values: ['10'] },
      { kind: 'number', column: 'user_count', operator: '=', values: ['1', '2'] },
      { kind: 'number', column: 'times_seen', operator: '=', values: ['3'] },
    ]);
    expect(error('timesSeen:>many')).toContain('timesSeen: Invalid number: many');
    expect(error('timesSeen:>[1, 2]')).toContain('a list compares only with = or !=');
  });

  it("reads user.* as the affected users' fields", () => {
    expect(filters('user.email:*@acme.test !user.id:42 has:user.username')).toEqual([
      { kind: 'user', field: 'email', negated: false, values: [{ like: '%@acme.test' }] },
      { kind: 'user', field: 'id', negated: true, values: [{ equals: '42' }] },
      { kind: 'user', field: 'username', negated: false, values: [] },
    ]);
  });

  it('reads has: of tags and fields', () => {
    expect(filters('has:environment !has:region has:assigned !has:firstRelease has:level !has:timesSeen')).toEqual([
      { kind: 'has_tag', key: 'environment', negated: false },
      { kind: 'has_tag', key: 'region', negated: true },
      { kind: 'has_column', column: 'assignee', negated: false },
      { kind: 'has_column', column: 'first_release', negated: true },
      { kind: 'has_column', column: 'always', negated: false },
      { kind: 'has_column', column: 'always', negated: true },
    ]);
    expect(error('has:"a b"')).toContain('Invalid format for "has" search');
  });

  it('groups free words into one phrase, as Sentry does, and reads message:', () => {
    expect(filters('Type Error is:resolved "x y" message:*foo*bar !message:50% message:[a, b]')).toEqual([
      { kind: 'message', negated: false, matches: [{ like: '%Type Error%', text: 'Type Error' }] },
      { kind: 'status', negated: false, status: 'resolved' },
      { kind: 'message', negated: false, matches: [{ like: '%x y%', text: 'x y' }] },
      { kind: 'message', negated: false, matches: [{ like: '%foo%bar', text: '*foo*bar' }] },
      { kind: 'message', negated: true, matches: [{ like: '%50\\%%', text: '50%' }] },
      {
        kind: 'message',
        negated: false,
        matches: [
          { like: '%a%', text: 'a' },
          { like: '%b%', text: 'b' },
        ],
      },
    ]);
    expect(filters('render(props) (a b)')).toEqual([
      { kind: 'message', negated: false, matches: [{ like: '%render(props) (a b)%', text: 'render(props) (a b)' }] },
    ]);
  });

  it('refuses keys it cannot answer rather than answering nothing', () => {
    for (const key of ['subscribed:me', 'error.type:TypeError', 'user.segment:a', 'issue.priority:high', 'stack.filename:app.js', 'has:os.version']) {
      expect(error(key)).toMatch(/^Error parsing search query: Invalid key for this search: [\w.]+ \(/);
    }
    expect(error('subscribed:me')).toBe('Error parsing search query: Invalid key for this search: subscribed (subscriptions are not kept)');
  });

  it('reads bookmarks: as the users whose bookmarks to match', () => {
    expect(filters('bookmarks:me !bookmarked_by:[dev@acme.test, 12]')).toEqual([
      { kind: 'bookmarked', negated: false, users: [{ type: 'user', id: '7' }] },
      {
        kind: 'bookmarked',
        negated: true,
        users: [
          { type: 'email', email: 'dev@acme.test' },
          { type: 'user', id: '12' },
        ],
      },
    ]);
  });

  it('refuses malformed queries with what is wrong', () => {
    expect(error('message:"unclosed')).toContain('Unbalanced quotes');
    expect(error('"unclosed')).toContain('Unbalanced quotes');
    expect(error('region:a"b')).toContain('Invalid quote');
    expect(error('environment:')).toContain("Empty string after 'environment:'");
    expect(error('foo)')).toContain('unmatched parentheses');
    expect(error('(foo')).toContain('unmatched parentheses');
    expect(error('region:[a,,b]')).toContain('Lists should not have empty values');
    expect(error('a OR b')).toContain('"OR" or "AND" are not supported');
    expect(error('level:catastrophic')).toContain('Invalid value for "level" search');
    expect(error('x'.repeat(2001))).toContain('at most 2000 characters');
    expect(error('a:b '.repeat(51))).toContain('at most 50 search terms');
  });

  it('either parses any input or refuses it with a DomainError, in linear time', () => {
    const alphabet = fc.constantFrom(...'ab:!"[], ()*\\<>=-+.#_%'.split(''), 'is:', 'has:', 'firstSeen:', 'timesSeen:', 'environment:', 'tags[', 'OR');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join('')),
        ),
        (query) => {
          try {
            parseIssueSearch(query, context);
          } catch (caught) {
            if (!(caught instanceof DomainError) || caught.code !== 'invalid') throw caught;
          }
        },
      ),
      { numRuns: 3000 },
    );
    const started = process.hrtime.bigint();
    for (const hostile of ['('.repeat(1999), '"'.repeat(1999), `a:${'['.repeat(1997)}`, 'a:*'.repeat(600), '\\'.repeat(1999)]) {
      try {
        parseIssueSearch(hostile, context);
      } catch (caught) {
        expect(caught).toBeInstanceOf(DomainError);
      }
    }
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });
});
