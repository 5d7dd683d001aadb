import fc from 'fast-check';
import { applySuggestion, issuesRequest, pageRange, readStreamState, setTerm, streamSearch, termValue, tokenAt } from './search';

describe('the issue stream URL', () => {
  it("reads Sentry's parameters: no query is is:unresolved, an empty one is everything", () => {
    expect(readStreamState('')).toEqual({ query: 'is:unresolved', sort: 'date', environments: [], projects: [], cursor: undefined });
    expect(readStreamState('?query=')).toMatchObject({ query: '' });
    expect(readStreamState('?query=is:resolved&sort=freq&environment=production&environment=staging&project=2&cursor=0:25:0')).toEqual({
      query: 'is:resolved',
      sort: 'freq',
      environments: ['production', 'staging'],
      projects: ['2'],
      cursor: '0:25:0',
    });
    expect(readStreamState('?sort=bogus').sort).toBe('date');
  });

  it('writes what it reads, so a reload or a shared link shows the same view', () => {
    const state = fc.record({
      query: fc.string(),
      sort: fc.constantFrom('date', 'new', 'freq', 'user'),
      environments: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
      projects: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
      cursor: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    });
    fc.assert(fc.property(state, (value) => expect(readStreamState(streamSearch(value))).toEqual(value)));
  });

  it('keeps the time range in the URL and asks the API for it', () => {
    const relative = readStreamState('?query=&statsPeriod=24h');
    expect(streamSearch(relative)).toBe('?query=&statsPeriod=24h');
    expect(new URL(issuesRequest('acme', relative), 'http://x').searchParams.get('statsPeriod')).toBe('24h');
    const absolute = readStreamState('?start=2026-01-01T00:00:00.000Z&end=2026-01-02T00:00:00.000Z');
    const request = new URL(issuesRequest('acme', absolute), 'http://x').searchParams;
    expect([request.get('start'), request.get('end'), request.get('statsPeriod')]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', null]);
  });

  it('says where the page is among the matches', () => {
    expect(pageRange(undefined, 25, 312, 10000)).toBe('1–25 of 312');
    expect(pageRange('0:25:0', 25, 312, 10000)).toBe('26–50 of 312');
    expect(pageRange('0:0:0', 3, 10000, 10000)).toBe('1–3 of 10000+');
    expect(pageRange(undefined, 0, 0, 10000)).toBe('');
  });

  it('asks the API for the same view', () => {
    const request = new URL(issuesRequest('acme', readStreamState('?query=level:error&sort=new&environment=production&project=1')), 'http://x');
    expect(request.pathname).toBe('/api/0/organizations/acme/issues/');
    expect(request.searchParams.get('query')).toBe('level:error');
    expect(request.searchParams.get('sort')).toBe('new');
    expect(request.searchParams.getAll('environment')).toEqual(['production']);
    expect(request.searchParams.getAll('project')).toEqual(['1']);
  });
});

describe('search box terms', () => {
  it('finds the term under the caret, its key, negation and the value typed so far', () => {
    expect(tokenAt('is:unresolved env', 17)).toEqual({ start: 14, end: 17, negation: '', partial: 'env' });
    expect(tokenAt('is:unresolved !environment:pro', 30)).toEqual({ start: 14, end: 30, negation: '!', key: 'environment', partial: 'pro' });
    expect(tokenAt('message:"a b" x', 10)).toMatchObject({ start: 0, end: 13, key: 'message', partial: 'a b' });
    expect(tokenAt('', 0)).toEqual({ start: 0, end: 0, negation: '', partial: '' });
  });

  it('completes a key with a colon and a value with a quoted-when-needed value and a space', () => {
    const query = 'is:unresolved env level:error';
    const key = applySuggestion(query, tokenAt(query, 17), { key: 'environment' });
    expect(key).toEqual({ query: 'is:unresolved environment: level:error', caret: 26 });
    const value = applySuggestion('!region:eu', tokenAt('!region:eu', 10), { key: 'region', value: 'eu west' });
    expect(value).toEqual({ query: '!region:"eu west" ', caret: 18 });
  });

  it('sets, replaces and removes one key, leaving the other terms', () => {
    expect(setTerm('is:unresolved release:a', 'release', 'shop@2')).toBe('is:unresolved release:shop@2');
    expect(setTerm('is:unresolved !release:a message:"x y"', 'release', '')).toBe('is:unresolved message:"x y"');
    expect(termValue('is:unresolved release:"a b"', 'release')).toBe('a b');
    expect(termValue('is:unresolved', 'release')).toBe('');
    // A `key:` inside another term's quoted value is that value's text, not a term.
    expect(termValue('message:"say release:x now" release:"a \\"b\\""', 'release')).toBe('a "b"');
  });
});
