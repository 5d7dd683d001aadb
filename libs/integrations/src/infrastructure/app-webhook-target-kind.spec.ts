import { classifyAppResponse } from './app-webhook-target-kind';

const now = new Date('2026-11-22T12:00:00Z');

describe('classifyAppResponse', () => {
  it('does not retry a 4xx answer, as Sentry does not', () => {
    expect(classifyAppResponse(400, undefined, now)).toEqual({ kind: 'rejected', reason: 'the app answered 400' });
    expect(classifyAppResponse(404, undefined, now).kind).toBe('rejected');
  });
  it('retries 5xx and 429', () => {
    expect(classifyAppResponse(500, undefined, now)).toEqual({ kind: 'failed' });
    expect(classifyAppResponse(429, '3', now)).toEqual({ kind: 'failed', retryAfterSeconds: 3 });
  });
});
