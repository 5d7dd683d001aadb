import { rateLimitsHeader } from './key-quota';

describe("the key's rate limits header", () => {
  it('names the categories each limit drops, as Sentry SDKs read them', () => {
    expect(rateLimitsHeader([{ category: 'error', retryAfterSeconds: 42 }])).toBe('42:default;error;security:key:key_quota');
    expect(
      rateLimitsHeader([
        { category: 'error', retryAfterSeconds: 7 },
        { category: 'user_report', retryAfterSeconds: 7 },
      ]),
    ).toBe('7:default;error;security:key:key_quota, 7:feedback:key:key_quota');
  });
});
