import fc from 'fast-check';
import {
  decideRateLimits,
  droppedItems,
  QUOTA_CATEGORIES,
  quotaCategoryOf,
  quotaQuantities,
  rateLimitsHeader,
  refusedQuotaChange,
  retryAfterSeconds,
  type Quota,
  type QuotaCategory,
  type RateLimit,
  type WindowCount,
} from './rate-limits';

const NOW = new Date('2026-03-10T12:00:30.000Z');
const in60s = new Date(NOW.getTime() + 60_000);

describe('rate limits', () => {
  describe('the X-Sentry-Rate-Limits header', () => {
    it('names the categories each limit drops, as SDKs read them, with scope and reason', () => {
      expect(rateLimitsHeader([{ category: 'error', scope: 'key', reason: 'key_quota', retryAfterSeconds: 60 }])).toBe(
        '60:default;error;security:key:key_quota',
      );
      expect(
        rateLimitsHeader([
          { category: 'error', scope: 'organization', reason: 'org_quota', retryAfterSeconds: 7 },
          { category: 'check_in', scope: 'organization', reason: 'org_quota', retryAfterSeconds: 7 },
          { category: 'user_report', scope: 'key', reason: 'key_quota', retryAfterSeconds: 7 },
          { category: 'session', scope: 'organization', reason: 'org_quota', retryAfterSeconds: 30 },
        ]),
      ).toBe('7:default;error;security;monitor:organization:org_quota, 7:feedback:key:key_quota, 30:session:organization:org_quota');
    });

    it('never sends an empty category list (which means every category), and Retry-After is the longest wait', () => {
      const limit = fc.record({
        category: fc.constantFrom(...QUOTA_CATEGORIES),
        scope: fc.constantFrom('key' as const, 'organization' as const),
        reason: fc.constantFrom('key_quota' as const, 'org_quota' as const, 'spike_protection' as const),
        retryAfterSeconds: fc.integer({ min: 1, max: 86_400 }),
      });
      fc.assert(
        fc.property(fc.array(limit, { minLength: 1, maxLength: 8 }), (limits) => {
          const entries = rateLimitsHeader(limits).split(', ');
          for (const entry of entries) {
            const [retryAfter, categories, scope, reason] = entry.split(':');
            expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
            expect(categories).toMatch(/^[a-z_]+(;[a-z_]+)*$/);
            expect(['key', 'organization']).toContain(scope);
            expect(reason).toMatch(/^[a-z_]+$/);
          }
          expect(retryAfterSeconds(limits)).toBe(Math.max(...limits.map((l) => l.retryAfterSeconds)));
        }),
      );
    });
  });

  describe('which categories of an envelope are dropped', () => {
    const keyQuotas: Quota[] = [
      { scope: 'key', category: 'error', limit: 10 },
      { scope: 'key', category: 'user_report', limit: 10 },
    ];

    it('given an error burst past the key limit, when the envelope also carries a check-in and a session, then only errors are dropped', () => {
      const limits = decideRateLimits({
        quantities: { error: 3, check_in: 1, session: 1 },
        quotas: keyQuotas,
        counts: [{ scope: 'key', category: 'error', count: 12, windowEnds: in60s }],
        spikeLimitedUntil: null,
        now: NOW,
      });
      expect(limits).toEqual([{ category: 'error', scope: 'key', reason: 'key_quota', retryAfterSeconds: 60 }]);
    });

    it('given a category over a key and an organization quota, then it is named once, with the longer wait', () => {
      const limits = decideRateLimits({
        quantities: { error: 1 },
        quotas: [...keyQuotas, { scope: 'organization', category: 'error', limit: 5 }],
        counts: [
          { scope: 'key', category: 'error', count: 11, windowEnds: in60s },
          { scope: 'organization', category: 'error', count: 6, windowEnds: new Date(NOW.getTime() + 3_000_000) },
        ],
        spikeLimitedUntil: null,
        now: NOW,
      });
      expect(limits).toEqual([{ category: 'error', scope: 'organization', reason: 'org_quota', retryAfterSeconds: 3000 }]);
    });

    it('given a spike, then errors are dropped until it ends, and nothing else', () => {
      const until = new Date('2026-03-10T13:00:00.000Z');
      const limits = decideRateLimits({ quantities: { error: 1, user_report: 1 }, quotas: [], counts: [], spikeLimitedUntil: until, now: NOW });
      expect(limits).toEqual([{ category: 'error', scope: 'organization', reason: 'spike_protection', retryAfterSeconds: 3570 }]);
      expect(decideRateLimits({ quantities: { user_report: 1 }, quotas: [], counts: [], spikeLimitedUntil: until, now: NOW })).toEqual([]);
      expect(decideRateLimits({ quantities: { error: 1 }, quotas: [], counts: [], spikeLimitedUntil: NOW, now: NOW })).toEqual([]);
    });

    it('drops exactly the categories sent and over a quota of their own', () => {
      const category = fc.constantFrom(...QUOTA_CATEGORIES);
      const scope = fc.constantFrom('key' as const, 'organization' as const);
      fc.assert(
        fc.property(
          fc.dictionary(category, fc.integer({ min: 0, max: 5 })),
          fc.uniqueArray(fc.record({ scope, category, limit: fc.integer({ min: 0, max: 20 }) }), { selector: (q) => `${q.scope}${q.category}` }),
          fc.array(fc.record({ scope, category, count: fc.integer({ min: 0, max: 40 }), seconds: fc.integer({ min: -5, max: 7200 }) })),
          (quantities, quotas, rawCounts) => {
            const counts: WindowCount[] = rawCounts.map((c) => ({ ...c, windowEnds: new Date(NOW.getTime() + c.seconds * 1000) }));
            const limits = decideRateLimits({ quantities, quotas, counts, spikeLimitedUntil: null, now: NOW });
            const over = (c: QuotaCategory) =>
              (quantities[c] ?? 0) > 0 &&
              counts.some((n) => n.category === c && quotas.some((q) => q.scope === n.scope && q.category === c && n.count > q.limit));
            expect(limits.map((l) => l.category)).toEqual(QUOTA_CATEGORIES.filter(over));
            for (const limit of limits) expect(limit.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          },
        ),
      );
    });
  });

  it('drops exactly the items of the limited categories: counted per category, kept when no limit names theirs', () => {
    const types = ['event', 'event', 'check_in', 'sessions', 'feedback', 'attachment', 'client_report', 'mystery'];
    expect(quotaQuantities(types)).toEqual({ error: 2, check_in: 1, session: 1, user_report: 1 });
    const limit = (category: QuotaCategory): RateLimit => ({ category, scope: 'key', reason: 'key_quota', retryAfterSeconds: 5 });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...types), { maxLength: 10 }), fc.subarray([...QUOTA_CATEGORIES]), (itemTypes, limitedCategories) => {
        const limits = limitedCategories.map(limit);
        const dropped = droppedItems(itemTypes, limits);
        itemTypes.forEach((type, index) => {
          const category = quotaCategoryOf(type);
          expect(dropped[index]?.category ?? null).toBe(category !== null && limitedCategories.includes(category) ? category : null);
        });
        expect(Object.values(quotaQuantities(itemTypes)).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(itemTypes.filter((t) => quotaCategoryOf(t)).length);
      }),
    );
  });

  it('gives each item type its quota category; types no quota counts are never limited', () => {
    expect(['event', 'user_report', 'feedback', 'check_in', 'session', 'sessions', 'attachment', 'client_report'].map(quotaCategoryOf)).toEqual([
      'error',
      'user_report',
      'user_report',
      'check_in',
      'session',
      'session',
      null,
      null,
    ]);
  });

  it("lets an owner set quotas within the instance's, and an instance administrator any", () => {
    expect(refusedQuotaChange({ error: 100, session: 5 }, { error: 1000 }, false)).toBeNull();
    expect(refusedQuotaChange({ error: null }, { error: 1000 }, false)).toBeNull();
    expect(refusedQuotaChange({ error: 1001 }, { error: 1000 }, false)).toMatch(/quotas\.error: the instance allows at most 1000/);
    expect(refusedQuotaChange({ error: 1001 }, { error: 1000 }, true)).toBeNull();
  });
});
