import { outcomesAnswer, type OutcomesQueryParams, parseOutcomesQuery } from './outcomes-query';

// 2026-03-10T10:20:00Z: mid-hour, so the alignment of ranges shows.
const NOW = Date.UTC(2026, 2, 10, 10, 20) / 1000;
const HOUR = 3600;
const params = (overrides: Partial<OutcomesQueryParams> = {}): OutcomesQueryParams => ({
  field: ['sum(quantity)'],
  groupBy: ['category'],
  category: [],
  outcome: [],
  reason: [],
  project: [],
  ...overrides,
});
const refusal = (overrides: Partial<OutcomesQueryParams>) => {
  try {
    parseOutcomesQuery(params(overrides), NOW);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe('stats_v2 queries', () => {
  it('reads a range back from now in whole hours, ending with the current hour', () => {
    const query = parseOutcomesQuery(params({ statsPeriod: '1d' }), NOW);
    expect(query).toMatchObject({ intervalSeconds: HOUR, resolution: '1h', end: Date.UTC(2026, 2, 10, 11) / 1000 });
    expect((query.end - query.start) / HOUR).toBe(25);
  });

  it('reads day intervals from the daily rollup, aligned to UTC days', () => {
    const query = parseOutcomesQuery(params({ statsPeriod: '7d', interval: '1d' }), NOW);
    expect(query).toMatchObject({ resolution: '1d', end: Date.UTC(2026, 2, 11) / 1000, start: Date.UTC(2026, 2, 3) / 1000 });
  });

  it('takes start and end, and expands error to the error categories', () => {
    const query = parseOutcomesQuery(
      params({ groupBy: ['outcome'], category: ['error'], start: '2026-03-09T00:00:00', end: '2026-03-09T06:30:00Z', interval: '2h' }),
      NOW,
    );
    expect(query).toMatchObject({ start: Date.UTC(2026, 2, 8, 23) / 1000, end: Date.UTC(2026, 2, 9, 7) / 1000, categories: ['default', 'error', 'security'] });
  });

  it("refuses what Sentry refuses, with Sentry's messages", () => {
    expect(refusal({ field: [] })).toBe('At least one "field" is required.');
    expect(refusal({ field: ['count()'] })).toBe('Invalid field: "count()"');
    expect(refusal({ groupBy: ['release'] })).toBe('Invalid groupBy: "release"');
    expect(refusal({ groupBy: [] })).toBe('Query must have category as groupby or filter');
    expect(refusal({ category: ['bytes'] })).toBe('Invalid category: "bytes"');
    expect(refusal({ category: ['attachment', 'error'] })).toBe('if filtering by attachment no other category may be present');
    expect(refusal({ outcome: ['dropped'] })).toBe('Invalid outcome: "dropped"');
    expect(refusal({ interval: '30m' })).toBe('The interval has to be a multiple of the minimum interval of one hour.');
    expect(refusal({ interval: '2d' })).toBe('The interval has to be less than one day.');
    expect(refusal({ interval: '5h' })).toBe('The interval should divide one day without a remainder.');
    expect(refusal({ statsPeriod: 'yesterday' })).toBe("Invalid statsPeriod: 'yesterday'");
    expect(refusal({ start: '2026-03-01T00:00:00Z' })).toBe('start and end are both required');
    expect(refusal({ start: '2026-03-02T00:00:00Z', end: '2026-03-01T00:00:00Z' })).toBe('start must be before end');
    expect(refusal({ start: 'soon', end: '2026-03-01T00:00:00Z' })).toBe('start: soon is not a valid ISO 8601 date');
    expect(refusal({ project: ['web'] })).toBe('Invalid project ids: web');
  });

  it('bounds the range and the number of intervals', () => {
    expect(refusal({ statsPeriod: '91d', interval: '1d' })).toBe('The date range may not be longer than 90 days.');
    expect(refusal({ statsPeriod: '60d', interval: '1h' })).toBe(
      'Your interval and date range would create too many results. Use a larger interval, or a smaller date range.',
    );
    expect(refusal({ statsPeriod: '60d', interval: '1d' })).toBeUndefined();
    // The default range (90 days) comes in days when no interval is asked for.
    expect(parseOutcomesQuery(params(), NOW)).toMatchObject({ intervalSeconds: 86400, resolution: '1d' });
    expect(refusal({ category: Array.from({ length: 101 }, () => 'error') })).toBe('At most 100 values of category');
  });

  it('answers a group per grouped value with totals and a series over every interval, errors together', () => {
    const query = parseOutcomesQuery(params({ groupBy: ['category', 'outcome'], statsPeriod: '3h', field: ['sum(quantity)', 'sum(times_seen)'] }), NOW);
    const answer = outcomesAnswer(query, [
      { interval: 0, category: 'error', outcome: 'accepted', projectId: '0', reason: null, quantity: 2, timesSeen: 2 },
      { interval: 3, category: 'security', outcome: 'accepted', projectId: '0', reason: null, quantity: 1, timesSeen: 1 },
      { interval: 3, category: 'attachment', outcome: 'filtered', projectId: '0', reason: null, quantity: 300, timesSeen: 1 },
    ]);
    expect(answer.start).toBe('2026-03-10T07:00:00Z');
    expect(answer.end).toBe('2026-03-10T11:00:00Z');
    expect(answer.intervals).toEqual(['2026-03-10T07:00:00Z', '2026-03-10T08:00:00Z', '2026-03-10T09:00:00Z', '2026-03-10T10:00:00Z']);
    expect(answer.groups).toEqual([
      {
        by: { category: 'error', outcome: 'accepted' },
        totals: { 'sum(quantity)': 3, 'sum(times_seen)': 3 },
        series: { 'sum(quantity)': [2, 0, 0, 1], 'sum(times_seen)': [2, 0, 0, 1] },
      },
      {
        by: { category: 'attachment', outcome: 'filtered' },
        totals: { 'sum(quantity)': 300, 'sum(times_seen)': 1 },
        series: { 'sum(quantity)': [0, 0, 0, 300], 'sum(times_seen)': [0, 0, 0, 1] },
      },
    ]);
  });

  it('answers totals only when grouped by project, as Sentry does', () => {
    const query = parseOutcomesQuery(params({ groupBy: ['project', 'reason'], category: ['error'], project: ['-1'] }), NOW);
    expect(query.projectIds).toEqual([]);
    const answer = outcomesAnswer(query, [
      { interval: 0, category: 'error', outcome: 'filtered', projectId: '7', reason: 'localhost', quantity: 4, timesSeen: 4 },
    ]);
    expect(answer.intervals).toBeUndefined();
    expect(answer.groups).toEqual([{ by: { project: 7, reason: 'localhost' }, totals: { 'sum(quantity)': 4 } }]);
  });
});
