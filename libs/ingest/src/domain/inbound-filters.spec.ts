import { type InboundFilters, inboundFilterMatchers, matchingFilter, NO_FILTERS } from './inbound-filters';
import { newHexId } from '@faultline/kernel';
import { normalizeEvent } from './normalize-event';

const event = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt: new Date('2026-01-01T00:00:00Z'), newEventId: newHexId() });
const matching = (raw: ReturnType<typeof event>, filters: InboundFilters) => matchingFilter(raw, inboundFilterMatchers(filters));

describe('inbound filters', () => {
  it('keeps everything without filters', () => {
    expect(matching(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), NO_FILTERS)).toBeUndefined();
  });

  it('drops events from localhost by user address or request URL', () => {
    const filters = { ...NO_FILTERS, localhost: true };
    expect(matching(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), filters)).toBe('localhost');
    expect(matching(event({ message: 'x', request: { url: 'http://localhost:3000/cart' } }), filters)).toBe('localhost');
    expect(matching(event({ message: 'x', request: { url: 'https://shop.example.com/' } }), filters)).toBeUndefined();
  });

  it('drops events whose error message matches a pattern', () => {
    const filters = { ...NO_FILTERS, errorMessages: ['TypeError: *undefined*', '*ResizeObserver loop*'] };
    const thrown = event({ exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] } });
    expect(matching(thrown, filters)).toBe('error-messages');
    expect(matching(event({ message: 'ResizeObserver loop limit exceeded' }), filters)).toBe('error-messages');
    expect(matching(event({ message: 'Payment failed' }), filters)).toBeUndefined();
  });

  it('drops events of matching releases', () => {
    const filters = { ...NO_FILTERS, releases: ['*-beta*'] };
    expect(matching(event({ message: 'x', release: 'shop@2.0.0-beta.1' }), filters)).toBe('releases');
    expect(matching(event({ message: 'x', release: 'shop@2.0.0' }), filters)).toBeUndefined();
    expect(matching(event({ message: 'x' }), filters)).toBeUndefined();
  });
});
