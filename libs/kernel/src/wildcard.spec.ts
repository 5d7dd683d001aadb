import fc from 'fast-check';
import { GlobSet, globStateWords, LikePattern } from './wildcard';

const matches = (pattern: string, text: string) => new GlobSet([pattern]).matches(text);

const escapeRegExp = (char: string) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The translation the filters used before: right on small inputs, exponential on crafted ones. */
function referenceMatch(pattern: string, text: string): boolean {
  const body = [...pattern].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : escapeRegExp(char))).join('');
  return new RegExp(`^${body}$`, 'is').test(text);
}

/** The translation event search used before for `project:` values, as slow as the filters' was. */
function referenceLike(like: string, text: string): boolean {
  let body = '';
  for (let index = 0; index < like.length; index++) {
    const char = like[index];
    if (char === '\\' && index + 1 < like.length) body += escapeRegExp(like[++index]);
    else body += char === '%' ? '.*' : char === '_' ? '.' : escapeRegExp(char);
  }
  return new RegExp(`^${body}$`, 's').test(text);
}

describe('GlobSet', () => {
  it('matches `*` as any run and `?` as one character, case-insensitively, the rest literally', () => {
    expect(matches('*timeout*', 'Request Timeout after 30s')).toBe(true);
    expect(matches('v1.?', 'V1.2')).toBe(true);
    expect(matches('v1.?', 'v1x2')).toBe(false);
    expect(matches('v1.?', 'v1.23')).toBe(false);
    expect(matches('a+b', 'a+b')).toBe(true);
    expect(matches('[abc]', '[abc]')).toBe(true);
    expect(matches('*', '')).toBe(true);
    expect(matches('', '')).toBe(true);
    expect(matches('', 'x')).toBe(false);
    expect(matches('?', '')).toBe(false);
    expect(matches('line*end', 'line one\nline two end')).toBe(true);
    expect(matches('**a**', 'xax')).toBe(true);
  });

  it('matches if any of its patterns does, and never without patterns', () => {
    const set = new GlobSet(['*-beta*', 'nightly-*']);
    expect(set.matches('shop@2.0.0-BETA.1')).toBe(true);
    expect(set.matches('nightly-2026')).toBe(true);
    expect(set.matches('shop@2.0.0')).toBe(false);
    expect(new GlobSet([]).matches('')).toBe(false);
  });

  it('agrees with the regular-expression translation on small inputs', () => {
    const char = fc.constantFrom('a', 'B', 'b', '.', '+', '(', '\n', ' ');
    const patternChar = fc.oneof(char, fc.constantFrom('*', '?'));
    fc.assert(
      fc.property(fc.array(patternChar, { maxLength: 12 }), fc.array(char, { maxLength: 16 }), (pattern, text) => {
        expect(matches(pattern.join(''), text.join(''))).toBe(referenceMatch(pattern.join(''), text.join('')));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the regular-expression translation with many patterns at once, also beyond ASCII', () => {
    // The patterns share one automaton: a match of one must never leak into the next one's states.
    const char = fc.constantFrom('a', 'B', 'b', 'é', 'É', '€', '\n');
    const pattern = fc.array(fc.oneof(char, fc.constantFrom('*', '?')), { maxLength: 40 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 6 }), fc.array(char, { maxLength: 60 }), (patterns, chars) => {
        const text = chars.join('');
        expect(new GlobSet(patterns).matches(text)).toBe(patterns.some((one) => referenceMatch(one, text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('decides patterns without `?` between stars by exact checks alone, agreeing with the regular expression', () => {
    // Fixed ends (which may hold `?`) and literal segments between stars: `indexOf`, leftmost first.
    const char = fc.constantFrom('a', 'b', 'B', '.', '\n');
    const literal = fc.array(char, { maxLength: 4 }).map((chars) => chars.join(''));
    const end = fc.array(fc.oneof(char, fc.constant('?')), { maxLength: 3 }).map((chars) => chars.join(''));
    const pattern = fc
      .tuple(end, fc.array(literal, { maxLength: 4 }), end, fc.boolean())
      .map(([head, middle, tail, starred]) => (starred ? [head, ...middle, tail].join('*') : head + tail));
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 4 }), fc.array(char, { maxLength: 24 }), (patterns, chars) => {
        const text = chars.join('');
        const set = new GlobSet(patterns);
        expect(set.matches(text)).toBe(patterns.some((one) => referenceMatch(one, text)));
        expect(set.wordSteps).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('bounds its work by the text times the state words, and skips the automaton where the checks decide', () => {
    const text = 'a'.repeat(8192);
    // The noisy-neighbour attack: its literal suffix is absent, so no automaton work at all.
    const suffixed = new GlobSet(Array.from({ length: 100 }, (_, i) => `${'*a'.repeat(98)}*${String(i).padStart(3, '0')}`));
    expect(suffixed.matches(text)).toBe(false);
    expect(suffixed.wordSteps).toBe(0);
    // A `?` between stars and every literal present: the automaton runs, within its bound.
    const anyOnes = new GlobSet(Array.from({ length: 100 }, (_, i) => `*${'?a'.repeat(98)}?${String.fromCharCode(98 + (i % 20))}*`.slice(0, 200)));
    expect(anyOnes.matches(text)).toBe(false);
    expect(anyOnes.wordSteps).toBeGreaterThan(0);
    expect(anyOnes.wordSteps).toBeLessThanOrEqual(text.length * globStateWords(100, 200));
    // The same with its rare character missing: the longest literal is absent, nothing to run.
    const missing = new GlobSet([`*${'?a'.repeat(10)}*xyz*`]);
    expect(missing.matches(text)).toBe(false);
    expect(missing.wordSteps).toBe(0);
  });

  it('handles patterns longer than one machine word of states', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '?', '*'), { minLength: 30, maxLength: 120 }),
        fc.array(fc.constantFrom('a', 'b'), { maxLength: 150 }),
        (pattern, text) => {
          expect(matches(pattern.join(''), text.join(''))).toBe(referenceMatch(pattern.join(''), text.join('')));
        },
      ),
      { numRuns: 300 },
    );
    // A star whose state is the last of a word, matching nothing and something.
    for (const before of [30, 31, 32, 63, 64]) {
      expect(matches(`${'a'.repeat(before)}*b`, `${'a'.repeat(before)}b`)).toBe(true);
      expect(matches(`${'a'.repeat(before)}*b`, `${'a'.repeat(before)}xyzb`)).toBe(true);
      expect(matches(`${'a'.repeat(before)}*b`, `${'a'.repeat(before - 1)}b`)).toBe(false);
    }
    const long = `${'ab'.repeat(50)}*${'?'.repeat(40)}`;
    expect(matches(long, `${'AB'.repeat(50)}${'x'.repeat(40)}`)).toBe(true);
    expect(matches(long, `${'AB'.repeat(50)}${'x'.repeat(39)}`)).toBe(false);
  });

  it('finishes patterns that make a backtracking matcher run for minutes', () => {
    // Each of these against 8 KB of `a` takes a backtracking regular expression exponential time;
    // here every one is a single pass over the text (the test's time-out bounds it).
    const text = 'a'.repeat(8192);
    const adversarial = [`*${'a*'.repeat(99)}b`, `*${'a?'.repeat(99)}b`, `${'*a'.repeat(100)}b`, `*${'a'.repeat(199)}b`];
    expect(new GlobSet(adversarial).matches(text)).toBe(false);
    expect(new GlobSet(adversarial).matches(`${text}b`)).toBe(true);
  });
});

describe('LikePattern', () => {
  const like = (pattern: string, text: string) => new LikePattern(pattern).matches(text);

  it('matches `%` as any run and `_` as one character, case-sensitively; a backslash makes the next one literal', () => {
    expect(like('web-%', 'web-frontend')).toBe(true);
    expect(like('web-%', 'WEB-frontend')).toBe(false);
    expect(like('a_c', 'abc')).toBe(true);
    expect(like('a_c', 'ac')).toBe(false);
    expect(like('100\\%', '100%')).toBe(true);
    expect(like('100\\%', '1000')).toBe(false);
    expect(like('a\\_b', 'axb')).toBe(false);
    expect(like('a*b', 'a*b')).toBe(true);
    expect(like('a*b', 'axb')).toBe(false);
    expect(like('ends\\', 'ends\\')).toBe(true);
    expect(like('%', '')).toBe(true);
  });

  it('agrees with the regular-expression translation on small inputs', () => {
    const char = fc.constantFrom('a', 'A', 'b', '.', '*', '\n');
    const patternChar = fc.oneof(char, fc.constantFrom('%', '_', '\\'));
    fc.assert(
      fc.property(fc.array(patternChar, { maxLength: 12 }), fc.array(char, { maxLength: 16 }), (pattern, text) => {
        expect(like(pattern.join(''), text.join(''))).toBe(referenceLike(pattern.join(''), text.join('')));
      }),
      { numRuns: 2000 },
    );
  });

  it('is linear in the text whatever the pattern: 100 wildcards against a long text finish at once', () => {
    // The regular expression of `%a%a…%b` against 50 `a` does not finish in minutes.
    const text = 'a'.repeat(100_000);
    for (const pattern of ['%'.repeat(100), `${'%a'.repeat(100)}b`, `%${'a_'.repeat(100)}b`, `${'%_'.repeat(100)}x`]) {
      const started = process.hrtime.bigint();
      expect(like(pattern, text)).toBe(pattern === '%'.repeat(100));
      expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(2);
    }
  });
});
