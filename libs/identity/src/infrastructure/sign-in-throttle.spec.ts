import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  it('refuses an e-mail address after 10 failures in 15 minutes, until the window passes', () => {
    const throttle = new SignInThrottle();
    const keys = ['email:a@example.com', 'ip:10.0.0.1'];
    const start = 1_000_000;
    for (let failure = 0; failure < 9; failure++) throttle.recordFailure(keys, start + failure);
    expect(throttle.retryAfterSeconds(keys, start + 10)).toBe(0);
    throttle.recordFailure(keys, start + 10);
    expect(throttle.retryAfterSeconds(['email:a@example.com', 'ip:10.0.0.1'], start + 11)).toBe(900);
    expect(throttle.retryAfterSeconds(['email:b@example.com', 'ip:10.0.0.1'], start + 11)).toBe(0);
    expect(throttle.retryAfterSeconds(keys, start + 15 * 60_000 + 1)).toBe(0);
  });

  it('refuses a client address after 50 failures, whichever e-mail addresses it tries', () => {
    const throttle = new SignInThrottle();
    for (let failure = 0; failure < 50; failure++) throttle.recordFailure([`email:user${failure}@example.com`, 'ip:10.0.0.1'], 1000);
    expect(throttle.retryAfterSeconds(['email:new@example.com', 'ip:10.0.0.1'], 1001)).toBe(900);
    expect(throttle.retryAfterSeconds(['email:new@example.com', 'ip:10.0.0.2'], 1001)).toBe(0);
  });

  it('forgets the failures of an e-mail address that signs in', () => {
    const throttle = new SignInThrottle();
    for (let failure = 0; failure < 10; failure++) throttle.recordFailure(['email:a@example.com'], 1000);
    throttle.recordSuccess(['email:a@example.com']);
    expect(throttle.retryAfterSeconds(['email:a@example.com'], 1001)).toBe(0);
  });
});
