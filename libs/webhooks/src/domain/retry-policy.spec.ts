import { classifyResponse, nextAttemptDelaySeconds, parseRetryAfter } from './retry-policy';

const now = new Date('2026-11-22T12:00:00Z');

describe('webhook retry policy', () => {
  it('counts 2xx as delivered, 410 as gone, anything else (3xx included) as a failure', () => {
    expect(classifyResponse(204, undefined, now)).toEqual({ kind: 'delivered' });
    expect(classifyResponse(410, undefined, now).kind).toBe('target-gone');
    expect(classifyResponse(302, undefined, now)).toEqual({ kind: 'failed' });
    expect(classifyResponse(500, '30', now)).toEqual({ kind: 'failed' });
  });

  it('honours Retry-After on 429 and 503, as seconds or a date, capped at a day', () => {
    expect(classifyResponse(429, '30', now)).toEqual({ kind: 'failed', retryAfterSeconds: 30 });
    expect(classifyResponse(503, 'Sun, 22 Nov 2026 12:02:00 GMT', now)).toEqual({ kind: 'failed', retryAfterSeconds: 120 });
    expect(parseRetryAfter('999999', now)).toBe(86_400);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('follows the schedule with ±20 % jitter, waits at least Retry-After, and stops when the schedule ends', () => {
    const schedule = [5, 300];
    expect(nextAttemptDelaySeconds(1, schedule, undefined, () => 0)).toBe(4);
    expect(nextAttemptDelaySeconds(1, schedule, undefined, () => 1)).toBeCloseTo(6);
    expect(nextAttemptDelaySeconds(2, schedule, undefined, () => 0.5)).toBe(300);
    expect(nextAttemptDelaySeconds(1, schedule, 60, () => 0.5)).toBe(60);
    expect(nextAttemptDelaySeconds(3, schedule, undefined)).toBeUndefined();
  });
});

describe('classifyResponse', () => {
  it('keeps retrying a service hook after a 4xx', () => {
    expect(classifyResponse(404, undefined, now)).toEqual({ kind: 'failed' });
  });
});
