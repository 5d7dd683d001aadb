import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { OWNERSHIP_LIMITS, ownershipSchema, parseOwnershipRules, type OwnershipRule } from './ownership-rules';

const rulesOf = (raw: string): OwnershipRule[] => {
  const parsed = parseOwnershipRules(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rules;
};

const errorOf = (raw: string): string => {
  const parsed = parseOwnershipRules(raw);
  if (parsed.ok) throw new Error(`parsed: ${JSON.stringify(parsed.rules)}`);
  return parsed.error;
};

describe('ownership rules', () => {
  it('reads one rule a line, as Sentry dumps its schema', () => {
    const raw = [
      '# frontend owns the client',
      'path:src/* #frontend',
      '',
      '  url:https://shop.example.com/checkout* Jane@Example.com #payments',
      'module:app.billing.* #billing',
    ].join('\n');
    expect(ownershipSchema(rulesOf(raw))).toEqual({
      $version: 1,
      rules: [
        { matcher: { type: 'path', pattern: 'src/*' }, owners: [{ type: 'team', identifier: 'frontend' }] },
        {
          matcher: { type: 'url', pattern: 'https://shop.example.com/checkout*' },
          owners: [
            { type: 'user', identifier: 'jane@example.com' },
            { type: 'team', identifier: 'payments' },
          ],
        },
        { matcher: { type: 'module', pattern: 'app.billing.*' }, owners: [{ type: 'team', identifier: 'billing' }] },
      ],
    });
  });

  it('takes a line without a type as a path, tag keys after tags., and quoted patterns with spaces', () => {
    expect(rulesOf('*.js #web\r\ntags.browser:Chrome* #web\rpath:"My Documents/*.txt" #docs\nC:\\src\\* #win').map((rule) => rule.matcher)).toEqual([
      { type: 'path', pattern: '*.js' },
      { type: 'tags.browser', pattern: 'Chrome*' },
      { type: 'path', pattern: 'My Documents/*.txt' },
      { type: 'path', pattern: 'C:\\src\\*' },
    ]);
    expect(rulesOf('codeowners:*.py #py')[0].matcher.type).toBe('codeowners');
  });

  it('names the line and column of what it cannot read', () => {
    expect(errorOf('path:src/* #web\npth:src/* #web')).toBe(
      'Parse error: unknown type "pth": use path, module, url, tags.<key> or codeowners (line 2, column 1)',
    );
    expect(errorOf('\n\nsrc/*')).toMatch(/^Parse error: the rule has no owners .*\(line 3, column 6\)$/);
    expect(errorOf('url: #web')).toBe('Parse error: the rule has no pattern (line 1, column 5)');
    expect(errorOf('tags.:x #web')).toMatch(/tags\. needs a tag key, .*\(line 1, column 1\)/);
    expect(errorOf('src/* # #web')).toMatch(/a team owner needs its slug .*\(line 1, column 7\)/);
    expect(errorOf('path:"src/* #web')).toMatch(/not closed \(line 1, column 6\)/);
  });

  it('keeps to its limits', () => {
    expect(errorOf('x'.repeat(OWNERSHIP_LIMITS.maxRawLength + 1))).toBe(`Raw needs to be <= ${OWNERSHIP_LIMITS.maxRawLength} characters in length`);
    expect(errorOf(`${'a'.repeat(OWNERSHIP_LIMITS.maxPatternLength + 1)} #web`)).toMatch(/at most 200 characters/);
    const many = Array.from({ length: OWNERSHIP_LIMITS.maxRules + 1 }, (_, i) => `src/${i}/* #web`).join('\n');
    expect(errorOf(many)).toMatch(new RegExp(`at most ${OWNERSHIP_LIMITS.maxRules} rules \\(line ${OWNERSHIP_LIMITS.maxRules + 1},`));
    const owners = Array.from({ length: OWNERSHIP_LIMITS.maxOwnersPerRule + 1 }, (_, i) => `#t${i}`).join(' ');
    expect(errorOf(`src/* ${owners}`)).toMatch(/at most 20 owners/);
  });

  it('reads any text without throwing, and answers rules within its limits or an error naming a line of the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          fc
            .array(fc.oneof(anyText, fc.constantFrom('path:', 'url:', 'tags.a:', '#', ' ', '"', '\n', '*', 'a@b.c')), { maxLength: 40 })
            .map((parts) => parts.join('')),
        ),
        (raw) => {
          const parsed = parseOwnershipRules(raw);
          if (!parsed.ok) {
            expect(parsed.line).toBeGreaterThanOrEqual(raw.length > OWNERSHIP_LIMITS.maxRawLength ? 0 : 1);
            expect(parsed.line).toBeLessThanOrEqual(raw.split(/\r\n|\r|\n/).length);
            return;
          }
          expect(parsed.rules.length).toBeLessThanOrEqual(OWNERSHIP_LIMITS.maxRules);
          for (const rule of parsed.rules) {
            expect(rule.matcher.pattern.length).toBeGreaterThan(0);
            expect(rule.matcher.pattern.length).toBeLessThanOrEqual(OWNERSHIP_LIMITS.maxPatternLength);
            expect(rule.owners.length).toBeGreaterThan(0);
            expect(rule.owners.length).toBeLessThanOrEqual(OWNERSHIP_LIMITS.maxOwnersPerRule);
            for (const owner of rule.owners) expect(owner.identifier.length).toBeGreaterThan(0);
          }
        },
      ),
    );
  });

  it('reads back the rules it was written from (patterns and owners without blanks)', () => {
    const blankless = (min: number) =>
      anyText.map((text) => text.replace(/[\s"#]/g, '')).filter((text) => text.length >= min && text.length <= OWNERSHIP_LIMITS.maxPatternLength);
    const rule = fc.record({
      type: fc.constantFrom('path', 'module', 'url', 'codeowners', 'tags.browser'),
      pattern: blankless(1),
      owners: fc.array(
        fc.oneof(
          blankless(1).map((slug) => ({ type: 'team' as const, identifier: slug })),
          blankless(0).map((local) => ({ type: 'user' as const, identifier: `${local}@example.com`.toLowerCase() })),
        ),
        { minLength: 1, maxLength: 5 },
      ),
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 10 }), (rules) => {
        const raw = rules
          .map((r) => `${r.type}:${r.pattern} ${r.owners.map((o) => (o.type === 'team' ? `#${o.identifier}` : o.identifier)).join(' ')}`)
          .join('\n');
        expect(rulesOf(raw)).toEqual(rules.map((r) => ({ matcher: { type: r.type, pattern: r.pattern }, owners: r.owners })));
      }),
    );
  });
});
