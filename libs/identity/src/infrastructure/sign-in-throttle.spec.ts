import { FixedClock } from '@faultline/kernel';
import { MAX_KEYS, type SignInAdmission, SignInThrottle } from './sign-in-throttle';

const WINDOW_MS = 15 * 60_000;
const admitted = (admission: SignInAdmission) => 'attempt' in admission;

describe('SignInThrottle', () => {
  let clock: FixedClock;
  let throttle: SignInThrottle;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    throttle = new SignInThrottle(clock);
  });

  it('admits 10 attempts for an e-mail address in 15 minutes, counted before any is checked, then refuses until the window passes', () => {
    const keys = ['email:a@example.com', 'ip:10.0.0.1'];
    const burst = Array.from({ length: 25 }, () => throttle.admit(keys));
    expect(burst.filter(admitted)).toHaveLength(10);
    expect(burst[10]).toEqual({ retryAfterSeconds: 900 });
    expect(admitted(throttle.admit(['email:b@example.com', 'ip:10.0.0.1']))).toBe(true);
    clock.advance(WINDOW_MS);
    expect(admitted(throttle.admit(keys))).toBe(true);
  });

  it('refuses a client address after 50 attempts, whichever e-mail addresses it tries', () => {
    for (let attempt = 0; attempt < 50; attempt++) expect(admitted(throttle.admit([`email:user${attempt}@example.com`, 'ip:10.0.0.1']))).toBe(true);
    expect(throttle.admit(['email:new@example.com', 'ip:10.0.0.1'])).toEqual({ retryAfterSeconds: 900 });
    expect(admitted(throttle.admit(['email:new@example.com', 'ip:10.0.0.2']))).toBe(true);
  });

  it('a success forgets the account’s attempts and gives the client its attempt back, but keeps its other failures', () => {
    const keys = ['email:a@example.com', 'ip:10.0.0.1'];
    for (let attempt = 0; attempt < 9; attempt++) throttle.admit(keys);
    for (let attempt = 0; attempt < 40; attempt++) throttle.admit([`email:other${attempt}@example.com`, 'ip:10.0.0.1']);
    const success = throttle.admit(keys);
    if (!('attempt' in success)) throw new Error('refused');
    throttle.succeeded(success.attempt);
    // The account's 10 attempts are forgotten; the address has 49 failures, and this is its 50th.
    expect(admitted(throttle.admit(keys))).toBe(true);
    expect(throttle.admit(['email:z@example.com', 'ip:10.0.0.1'])).toEqual({ retryAfterSeconds: 900 });
  });

  it('flooding the table with new keys forgets the least recently used, never a refused address or account', () => {
    for (let attempt = 0; attempt < 50; attempt++) throttle.admit([`email:guess${attempt}@example.com`, 'ip:203.0.113.7']);
    for (let attempt = 0; attempt < 10; attempt++) throttle.admit(['email:victim@example.com', `ip:198.51.100.${attempt}`]);
    // Two new keys each: twice what the table holds.
    let floods = 0;
    for (let key = 0; key < MAX_KEYS; key++) if (admitted(throttle.admit([`email:flood${key}@example.com`, `ip:flood-${key}`]))) floods++;
    expect(floods).toBe(MAX_KEYS);
    expect(throttle.admit(['email:fresh@example.com', 'ip:203.0.113.7'])).toEqual({ retryAfterSeconds: 900 });
    expect(throttle.admit(['email:victim@example.com', 'ip:192.0.2.1'])).toEqual({ retryAfterSeconds: 900 });
    // The flood's first keys, used once and long ago, were forgotten.
    for (let attempt = 0; attempt < 9; attempt++) throttle.admit(['email:flood0@example.com', `ip:192.0.2.${attempt + 10}`]);
    expect(admitted(throttle.admit(['email:flood0@example.com', 'ip:192.0.2.99']))).toBe(true);
  });
});
