import { categoryOfEvent, DATA_CATEGORIES, isErrorCategory } from './data-category';
import { ENVELOPE_ITEM_TYPES, type EnvelopeItem, type EnvelopeItemType } from './envelope';
import { fateOf, ITEM_RULES, quantitiesOf } from './item-disposition';
import { filtered, filterReasonOf, isOutcome, legacyStatsOf, OUTCOMES, outcomesOf, rateLimited, underRateLimits } from './outcome';

const item = (type: EnvelopeItemType, payload = '{}', header: Record<string, unknown> = {}): EnvelopeItem => ({
  type,
  header: { type, ...header },
  payload: Buffer.from(payload),
});

describe('data categories', () => {
  it('gives events the category Relay gives their type: errors and default events are error, security reports security', () => {
    expect(categoryOfEvent(undefined)).toBe('error');
    expect(categoryOfEvent('error')).toBe('error');
    expect(categoryOfEvent('default')).toBe('error');
    expect(categoryOfEvent('something-new')).toBe('error');
    for (const type of ['csp', 'hpkp', 'expectct', 'expectstaple']) expect(categoryOfEvent(type)).toBe('security');
    expect(categoryOfEvent('transaction')).toBe('transaction');
  });

  it('counts default, error and security as errors, and nothing else', () => {
    expect(DATA_CATEGORIES.filter(isErrorCategory)).toEqual(['default', 'error', 'security']);
  });
});

describe('item disposition', () => {
  it('has a fate for every item type, unknown ones included', () => {
    for (const type of [...ENVELOPE_ITEM_TYPES, 'other' as const]) expect(ITEM_RULES[type]).toBeDefined();
  });

  it('processes events, keeps user reports, attachments, check-ins and sessions, reads client reports, and counts the rest as not kept', () => {
    expect(fateOf('event')).toBe('process');
    expect(fateOf('user_report')).toBe('keep');
    expect(fateOf('feedback')).toBe('keep');
    expect(fateOf('client_report')).toBe('client_report');
    for (const type of ['check_in', 'attachment', 'session', 'sessions'] as const) expect(fateOf(type)).toBe('keep');
    for (const type of ['transaction', 'span', 'log', 'profile', 'replay_event'] as const) {
      expect(fateOf(type)).toEqual({ outcome: 'filtered', reason: 'unsupported_item' });
    }
  });

  it('measures items as Relay does: attachments and logs by their bytes, containers by item_count, check-ins as monitor', () => {
    expect(quantitiesOf(item('event'))).toEqual([{ category: 'error', quantity: 1 }]);
    expect(quantitiesOf(item('event'), 'security')).toEqual([{ category: 'security', quantity: 1 }]);
    expect(quantitiesOf(item('attachment', 'x'.repeat(300)))).toEqual([{ category: 'attachment', quantity: 300 }]);
    expect(quantitiesOf(item('log', 'x'.repeat(50), { item_count: 4 }))).toEqual([
      { category: 'log_item', quantity: 4 },
      { category: 'log_byte', quantity: 50 },
    ]);
    expect(quantitiesOf(item('span', '{}', { item_count: -3 }))).toEqual([{ category: 'span', quantity: 1 }]);
    expect(quantitiesOf(item('check_in'))).toEqual([{ category: 'monitor', quantity: 1 }]);
    expect(quantitiesOf(item('sessions'))).toEqual([{ category: 'session', quantity: 1 }]);
    expect(quantitiesOf(item('user_report'))).toEqual([{ category: 'feedback', quantity: 1 }]);
    expect(quantitiesOf(item('other'))).toEqual([]);
    expect(quantitiesOf(item('client_report'))).toEqual([]);
  });
});

describe('outcomes', () => {
  it("are Sentry's, in Sentry's order", () => {
    expect(OUTCOMES.indexOf('accepted')).toBe(0);
    expect(OUTCOMES.indexOf('rate_limited')).toBe(2);
    expect(OUTCOMES.indexOf('client_discard')).toBe(5);
    expect(isOutcome('cardinality_limited')).toBe(true);
    expect(isOutcome('received')).toBe(false);
  });

  it('counts each quantity of an item once', () => {
    expect(outcomesOf([{ category: 'log_byte', quantity: 50 }], rateLimited('key_quota'))).toEqual([
      { outcome: 'rate_limited', reason: 'key_quota', category: 'log_byte', quantity: 50, timesSeen: 1 },
    ]);
  });

  it('counts what a quota limited as rate limited rather than filtered, and leaves the rest', () => {
    const outcomes = [
      ...outcomesOf([{ category: 'transaction', quantity: 1 }], filtered('unsupported_item')),
      ...outcomesOf([{ category: 'session', quantity: 1 }], filtered('unsupported_item')),
      { outcome: 'client_discard' as const, reason: 'before_send' as const, category: 'transaction' as const, quantity: 3, timesSeen: 1 },
    ];
    expect(underRateLimits(outcomes, new Set(['transaction'] as const), 'key_quota').map(({ outcome, category }) => `${outcome}/${category}`)).toEqual([
      'rate_limited/transaction',
      'filtered/session',
      'client_discard/transaction',
    ]);
  });

  it("names inbound filters by Sentry's filter stat keys", () => {
    expect([filterReasonOf('localhost'), filterReasonOf('error-messages'), filterReasonOf('releases')]).toEqual([
      'localhost',
      'error-message',
      'release-version',
    ]);
  });

  it('counts only error events in the legacy project stats', () => {
    expect(legacyStatsOf('accepted', 'error')).toEqual(['received', 'generated']);
    expect(legacyStatsOf('filtered', 'security')).toEqual(['received', 'blacklisted']);
    expect(legacyStatsOf('rate_limited', 'default')).toEqual(['received', 'rejected']);
    expect(legacyStatsOf('invalid', 'error')).toEqual([]);
    expect(legacyStatsOf('client_discard', 'error')).toEqual([]);
    for (const category of ['transaction', 'session', 'span', 'feedback', 'attachment'] as const) {
      for (const outcome of OUTCOMES) expect(legacyStatsOf(outcome, category)).toEqual([]);
    }
  });
});
