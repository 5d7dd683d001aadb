import { newHexId } from '@faultline/kernel';
import {
  INBOUND_FILTER_LIMITS,
  type InboundFilters,
  inboundFilterMatchers,
  MAX_FILTER_WORD_STEPS_PER_EVENT,
  matchingFilter,
  NO_FILTERS,
} from './inbound-filters';
import { EVENT_LIMITS, normalizeEvent } from './normalize-event';

const event = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt: new Date('2026-01-01T00:00:00Z'), newEventId: newHexId() });
const matching = (raw: ReturnType<typeof event>, filters: InboundFilters) => matchingFilter(raw, inboundFilterMatchers(filters));

describe('inbound filters', () => {
  it('keeps everything without filters', async () => {
    expect(await matching(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), NO_FILTERS)).toBeUndefined();
  });

  it('drops events from localhost by user address or request URL', async () => {
    const filters = { ...NO_FILTERS, localhost: true };
    expect(await matching(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), filters)).toBe('localhost');
    expect(await matching(event({ message: 'x', request: { url: 'http://localhost:3000/cart' } }), filters)).toBe('localhost');
    expect(await matching(event({ message: 'x', request: { url: 'https://shop.example.com/' } }), filters)).toBeUndefined();
  });

  it('drops events whose error message matches a pattern', async () => {
    const filters = { ...NO_FILTERS, errorMessages: ['TypeError: *undefined*', '*ResizeObserver loop*'] };
    const thrown = event({ exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] } });
    expect(await matching(thrown, filters)).toBe('error-messages');
    expect(await matching(event({ message: 'ResizeObserver loop limit exceeded' }), filters)).toBe('error-messages');
    expect(await matching(event({ message: 'Payment failed' }), filters)).toBeUndefined();
  });

  it('drops events of matching releases', async () => {
    const filters = { ...NO_FILTERS, releases: ['*-beta*'] };
    expect(await matching(event({ message: 'x', release: 'shop@2.0.0-beta.1' }), filters)).toBe('releases');
    expect(await matching(event({ message: 'x', release: 'shop@2.0.0' }), filters)).toBeUndefined();
    expect(await matching(event({ message: 'x' }), filters)).toBeUndefined();
  });

  it('pauses before each distinct message it matches, and tries each text once', async () => {
    const filters = inboundFilterMatchers({ ...NO_FILTERS, errorMessages: ['*never*'] });
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    // The title is `Type: value` here: two texts, that and the value.
    expect(await matchingFilter(event({ exception: { values: [{ type: 'TypeError', value: 'x' }] } }), filters, pause)).toBeUndefined();
    expect(pauses).toBe(2);
    // A message event's title is its message: one text.
    pauses = 0;
    expect(await matchingFilter(event({ message: 'Payment failed' }), filters, pause)).toBeUndefined();
    expect(pauses).toBe(1);
  });

  it('keeps the work of the largest filters on the largest event within its declared budget', async () => {
    // The most patterns of the most characters, each with a `?` between stars (no exact check
    // decides them) and every literal but the last present: the automaton runs over every text.
    const { maxPatterns, maxPatternLength } = INBOUND_FILTER_LIMITS;
    const patterns = Array.from(
      { length: maxPatterns },
      (_, i) => `*${'?a'.repeat(maxPatternLength)}`.slice(0, maxPatternLength - 2) + `${'bcdefghijk'[i % 10]}*`,
    );
    const filters = inboundFilterMatchers({ localhost: false, errorMessages: patterns, releases: patterns });
    // `İ` folds to two characters: the longest texts there are after folding.
    const long = (length: number) => 'aİ'.repeat(length).slice(0, length);
    const raw = {
      message: long(EVENT_LIMITS.message),
      exception: { values: [{ type: long(EVENT_LIMITS.exceptionType), value: long(EVENT_LIMITS.exceptionValue) }] },
      release: long(EVENT_LIMITS.release),
    };
    expect(await matchingFilter(event(raw), filters)).toBeUndefined();
    const work = filters.errorMessages.wordSteps + filters.releases.wordSteps;
    expect(work).toBeGreaterThan(MAX_FILTER_WORD_STEPS_PER_EVENT / 4);
    expect(work).toBeLessThanOrEqual(MAX_FILTER_WORD_STEPS_PER_EVENT);
  });
});
