import { globToRegExp, matchingFilter, NO_FILTERS } from './inbound-filters';
import { normalizeEvent } from './normalize-event';

const event = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt: new Date('2026-01-01T00:00:00Z') });

describe('inbound filters', () => {
  it('matches globs case-insensitively and literally otherwise', () => {
    expect(globToRegExp('*timeout*').test('Request Timeout after 30s')).toBe(true);
    expect(globToRegExp('v1.?').test('v1.2')).toBe(true);
    expect(globToRegExp('v1.?').test('v1x2')).toBe(false);
    expect(globToRegExp('a+b').test('a+b')).toBe(true);
  });

  it('keeps everything without filters', () => {
    expect(matchingFilter(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), NO_FILTERS)).toBeUndefined();
  });

  it('drops events from localhost by user address or request URL', () => {
    const filters = { ...NO_FILTERS, localhost: true };
    expect(matchingFilter(event({ message: 'x', user: { ip_address: '127.0.0.1' } }), filters)).toBe('localhost');
    expect(matchingFilter(event({ message: 'x', request: { url: 'http://localhost:3000/cart' } }), filters)).toBe('localhost');
    expect(matchingFilter(event({ message: 'x', request: { url: 'https://shop.example.com/' } }), filters)).toBeUndefined();
  });

  it('drops events whose error message matches a pattern', () => {
    const filters = { ...NO_FILTERS, errorMessages: ['TypeError: *undefined*', '*ResizeObserver loop*'] };
    const thrown = event({ exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] } });
    expect(matchingFilter(thrown, filters)).toBe('error-messages');
    expect(matchingFilter(event({ message: 'ResizeObserver loop limit exceeded' }), filters)).toBe('error-messages');
    expect(matchingFilter(event({ message: 'Payment failed' }), filters)).toBeUndefined();
  });

  it('drops events of matching releases', () => {
    const filters = { ...NO_FILTERS, releases: ['*-beta*'] };
    expect(matchingFilter(event({ message: 'x', release: 'shop@2.0.0-beta.1' }), filters)).toBe('releases');
    expect(matchingFilter(event({ message: 'x', release: 'shop@2.0.0' }), filters)).toBeUndefined();
    expect(matchingFilter(event({ message: 'x' }), filters)).toBeUndefined();
  });
});
