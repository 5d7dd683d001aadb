import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { CLIENT_REPORT_LIMITS, clientDiscardsOf, DISCARD_REASONS } from './client-report';
import { DATA_CATEGORIES } from './data-category';

const report = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('client reports', () => {
  it("counts the SDK's discards per category and reason", () => {
    const discards = clientDiscardsOf(
      report({
        timestamp: '2026-01-01T00:00:00Z',
        discarded_events: [
          { reason: 'queue_overflow', category: 'error', quantity: 23 },
          { reason: 'sample_rate', category: 'transaction', quantity: 7 },
        ],
        rate_limited_events: [{ category: 'span', quantity: 2 }],
        network_error_events: [{ reason: 'network_error', category: 'replay', quantity: 1 }],
      }),
    );
    expect(discards).toEqual([
      { outcome: 'client_discard', reason: 'queue_overflow', category: 'error', quantity: 23, timesSeen: 1 },
      { outcome: 'client_discard', reason: 'sample_rate', category: 'transaction', quantity: 7, timesSeen: 1 },
      { outcome: 'client_discard', reason: 'ratelimit_backoff', category: 'span', quantity: 2, timesSeen: 1 },
      { outcome: 'client_discard', reason: 'network_error', category: 'replay', quantity: 1, timesSeen: 1 },
    ]);
  });

  it('leaves out lines with an unknown category or a quantity that is not a whole positive number within the limit', () => {
    const lines = [
      { reason: 'before_send', category: 'internal', quantity: 1 },
      { reason: 'before_send', category: 'error', quantity: 0 },
      { reason: 'before_send', category: 'error', quantity: 1.5 },
      { reason: 'before_send', category: 'error', quantity: '3' },
      { reason: 'before_send', category: 'error', quantity: CLIENT_REPORT_LIMITS.maxQuantity + 1 },
      null,
      { reason: 'before_send', category: 'error', quantity: 4 },
    ];
    expect(clientDiscardsOf(report({ discarded_events: lines }))).toEqual([
      { outcome: 'client_discard', reason: 'before_send', category: 'error', quantity: 4, timesSeen: 1 },
    ]);
  });

  it('counts a reason the SDKs do not document as other, so reasons stay a short list', () => {
    expect(clientDiscardsOf(report({ discarded_events: [{ reason: 'made_up_' + 'x'.repeat(500), category: 'error', quantity: 1 }] }))).toEqual([
      { outcome: 'client_discard', reason: 'other', category: 'error', quantity: 1, timesSeen: 1 },
    ]);
  });

  it('sums the lines of one category and reason, and reads no more than its limits: lines per report and bytes', () => {
    const many = Array.from({ length: CLIENT_REPORT_LIMITS.maxEntries + 50 }, () => ({ reason: 'send_error', category: 'error', quantity: 2 }));
    expect(clientDiscardsOf(report({ discarded_events: many }))).toEqual([
      {
        outcome: 'client_discard',
        reason: 'send_error',
        category: 'error',
        quantity: 2 * CLIENT_REPORT_LIMITS.maxEntries,
        timesSeen: CLIENT_REPORT_LIMITS.maxEntries,
      },
    ]);
    const padded = report({ discarded_events: [{ reason: 'send_error', category: 'error', quantity: 1 }], padding: 'x'.repeat(CLIENT_REPORT_LIMITS.maxBytes) });
    expect(clientDiscardsOf(padded)).toEqual([]);
    expect(clientDiscardsOf(Buffer.from('not json'))).toEqual([]);
    expect(clientDiscardsOf(report([1, 2]))).toEqual([]);
  });

  it('never throws, and whatever it is sent adds at most its limits, in known categories and reasons', () => {
    const line = fc.record(
      {
        reason: fc.oneof(fc.constantFrom(...DISCARD_REASONS), anyText),
        category: fc.oneof(fc.constantFrom(...DATA_CATEGORIES), anyText),
        quantity: fc.oneof(fc.integer(), fc.double(), anyText, fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc
        .record({ discarded_events: fc.array(fc.oneof(line, fc.anything())), rate_limited_events: fc.anything() }, { requiredKeys: [] })
        .map((value) => report(value)),
      fc.jsonValue().map((value) => report(value)),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    );
    fc.assert(
      fc.property(body, (payload) => {
        const discards = clientDiscardsOf(payload);
        expect(discards.length).toBeLessThanOrEqual(CLIENT_REPORT_LIMITS.maxEntries);
        expect(discards.reduce((lines, discard) => lines + discard.timesSeen, 0)).toBeLessThanOrEqual(CLIENT_REPORT_LIMITS.maxEntries);
        for (const discard of discards) {
          expect(DATA_CATEGORIES).toContain(discard.category);
          expect(DISCARD_REASONS).toContain(discard.reason);
          expect(Number.isSafeInteger(discard.quantity) && discard.quantity >= discard.timesSeen).toBe(true);
          expect(discard.quantity).toBeLessThanOrEqual(discard.timesSeen * CLIENT_REPORT_LIMITS.maxQuantity);
        }
      }),
    );
  });
});
