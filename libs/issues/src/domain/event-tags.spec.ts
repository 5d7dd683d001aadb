import { eventTags } from './event-tags';

describe('eventTags', () => {
  it('adds the tags Sentry derives from the event, sorted by key', () => {
    expect(
      eventTags({
        tags: [['feature', 'checkout']],
        level: 'warning',
        environment: 'production',
        release: 'shop@1.2.3',
        serverName: 'web-1',
        transaction: '/checkout',
        url: 'https://shop.example.com/checkout',
        user: 'id:42',
        mechanism: { type: 'onunhandledrejection', handled: false },
      }),
    ).toEqual([
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

  it('keeps an SDK tag over a derived one of the same key, and leaves out what is missing or not text', () => {
    expect(eventTags({ tags: [['level', 'custom']], level: 'error', environment: '', release: 7, mechanism: { handled: 'maybe' } })).toEqual([
      ['level', 'custom'],
    ]);
  });
});
