import { eventTags } from './event-tags';
import { normalizeEvent } from './normalize-event';

const receivedAt = new Date('2026-01-01T00:00:00Z');

describe('eventTags', () => {
  it('adds the tags Sentry derives from the event, sorted by key', () => {
    const event = normalizeEvent(
      {
        event_id: 'a'.repeat(32),
        level: 'warning',
        environment: 'production',
        release: 'shop@1.2.3',
        server_name: 'web-1',
        transaction: '/checkout',
        request: { url: 'https://shop.example.com/checkout' },
        tags: { feature: 'checkout' },
        exception: { values: [{ type: 'TypeError', value: 'x', mechanism: { type: 'onunhandledrejection', handled: false } }] },
      },
      { receivedAt },
    );
    expect(eventTags(event, 'id:42')).toEqual([
      ['environment', 'production'],
      ['feature', 'checkout'],
      ['handled', 'no'],
      ['level', 'warning'],
      ['mechanism', 'onunhandledrejection'],
      ['release', 'shop@1.2.3'],
      ['server_name', 'web-1'],
      ['transaction', '/checkout'],
      ['url', 'https://shop.example.com/checkout'],
      ['user', 'id:42'],
    ]);
  });

  it('keeps an SDK tag over a derived one of the same key, and leaves out what the event lacks', () => {
    const event = normalizeEvent({ event_id: 'b'.repeat(32), message: 'hello', tags: [['level', 'custom']] }, { receivedAt });
    expect(eventTags(event, undefined)).toEqual([
      ['environment', 'production'],
      ['level', 'custom'],
    ]);
  });
});
