import { MAX_OWNERSHIP_WORD_STEPS_PER_EVENT, OWNERSHIP_SUBJECT_LIMITS, OwnershipRulesMatcher, type OwnershipSubject } from './ownership-matcher';
import { OWNERSHIP_LIMITS, parseOwnershipRules, type OwnershipRule } from './ownership-rules';

const rules = (raw: string): OwnershipRule[] => {
  const parsed = parseOwnershipRules(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rules;
};

const subject = (fields: Partial<OwnershipSubject>): OwnershipSubject => ({ paths: [], modules: [], tags: [], ...fields });
const patterns = (matched: OwnershipRule[]) => matched.map((rule) => `${rule.matcher.type}:${rule.matcher.pattern}`);

describe('ownership rules matcher', () => {
  const matcher = new OwnershipRulesMatcher(
    rules(
      [
        'path:src/* #frontend',
        'path:*.py #backend',
        'module:app.billing.* #billing',
        'url:*/checkout* #payments',
        'tags.browser:Chrome* jane@example.com',
        'path:src/payments/* #payments',
      ].join('\n'),
    ),
  );

  it('answers the matching rules, the last of the text first (it takes precedence)', () => {
    expect(patterns(matcher.matching(subject({ paths: ['src/payments/card.ts'] })))).toEqual(['path:src/payments/*', 'path:src/*']);
    expect(patterns(matcher.matching(subject({ paths: ['lib/x.js'] })))).toEqual([]);
  });

  it('matches paths case-insensitively with / for \\, modules, the request URL and tags by key', () => {
    expect(patterns(matcher.matching(subject({ paths: ['SRC\\App.tsx'] })))).toEqual(['path:src/*']);
    expect(patterns(matcher.matching(subject({ modules: ['app.billing.invoices'] })))).toEqual(['module:app.billing.*']);
    expect(patterns(matcher.matching(subject({ url: 'https://shop.example.com/checkout/pay' })))).toEqual(['url:*/checkout*']);
    expect(patterns(matcher.matching(subject({ tags: [['browser', 'Chrome 120']] })))).toEqual(['tags.browser:Chrome*']);
    expect(patterns(matcher.matching(subject({ tags: [['os', 'Chrome 120']] })))).toEqual([]);
  });

  it('matches the whole text, with ? as exactly one character, and no pattern is a regular expression', () => {
    const exact = new OwnershipRulesMatcher(rules('path:a?c #t\npath:(x+)+y #t'));
    expect(patterns(exact.matching(subject({ paths: ['abc'] })))).toEqual(['path:a?c']);
    expect(patterns(exact.matching(subject({ paths: ['xabc', 'abcd', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'] })))).toEqual([]);
    expect(patterns(exact.matching(subject({ paths: ['(x+)+y'] })))).toEqual(['path:(x+)+y']);
  });

  it('reads only the first distinct paths of an event', () => {
    const last = new OwnershipRulesMatcher(rules('path:needle #t'));
    const paths = [...Array.from({ length: OWNERSHIP_SUBJECT_LIMITS.maxPaths }, (_, i) => `file${i}`), 'needle'];
    expect(last.matching(subject({ paths }))).toEqual([]);
    expect(last.matching(subject({ paths: paths.slice(1) }))).toHaveLength(1);
  });

  it('keeps the work of the largest rules on the largest event within its declared budget', () => {
    // The most rules of the most characters, each with a `?` between stars (no exact check decides
    // them), over texts that hold every rule's literal (`ab` to `ak`) but match none: the automaton
    // runs over every text for every rule.
    const length = Math.floor(OWNERSHIP_LIMITS.maxPatternCharacters / OWNERSHIP_LIMITS.maxRules);
    const raw = Array.from(
      { length: OWNERSHIP_LIMITS.maxRules },
      (_, i) => `path:${`*${'?a'.repeat(length)}`.slice(0, length - 2)}${'bcdefghijk'[i % 10]}* #t`,
    ).join('\n');
    const heavy = new OwnershipRulesMatcher(rules(raw));
    const literals = 'abacadaeafagahaiajak';
    const long = (n: number, i: number) => `${i}${'b'.repeat(n)}`.slice(0, n - literals.length) + literals;
    const paths = Array.from({ length: OWNERSHIP_SUBJECT_LIMITS.maxPaths }, (_, i) => long(OWNERSHIP_SUBJECT_LIMITS.maxTextLength, i));
    expect(heavy.matching(subject({ paths }))).toEqual([]);
    expect(heavy.wordSteps).toBeGreaterThan(MAX_OWNERSHIP_WORD_STEPS_PER_EVENT / 10);
    expect(heavy.wordSteps).toBeLessThanOrEqual(MAX_OWNERSHIP_WORD_STEPS_PER_EVENT);
  });
});
