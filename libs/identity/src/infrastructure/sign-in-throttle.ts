import { Injectable } from '@nestjs/common';

const WINDOW_MS = 15 * 60_000;
/** Per e-mail address; a client address (`ip:` keys) may be an office behind one NAT, so it gets more. */
const MAX_FAILURES = 10;
const MAX_FAILURES_PER_CLIENT = 50;
const MAX_KEYS = 50_000;

/**
 * Slows password guessing: after 10 failed sign-ins for one e-mail address (50 from one client
 * address) within 15 minutes, further attempts are refused until the window has passed. Kept per
 * process (each API process counts on its own), which bounds guessing without a shared store.
 */
@Injectable()
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  /** Seconds to wait before trying again, or 0 when an attempt may be made now. */
  retryAfterSeconds(keys: readonly string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      const limit = key.startsWith('ip:') ? MAX_FAILURES_PER_CLIENT : MAX_FAILURES;
      if (recent.length >= limit) wait = Math.max(wait, Math.ceil((recent[0] + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  recordFailure(keys: readonly string[], now = Date.now()): void {
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  recordSuccess(keys: readonly string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
  }
}
