import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';

const WINDOW_MS = 15 * 60_000;
/** Per e-mail address; a client address (`ip:` keys) may be an office behind one NAT, so it gets more. */
const MAX_FAILURES = 10;
const MAX_FAILURES_PER_CLIENT = 50;
/** Keys kept at most (e-mail addresses and client addresses together). */
export const MAX_KEYS = 50_000;

/** An attempt counted before its password was checked. */
export interface SignInAttempt {
  readonly keys: readonly string[];
  readonly at: number;
}

export type SignInAdmission = { readonly attempt: SignInAttempt } | { readonly retryAfterSeconds: number };

/**
 * Slows password guessing: after 10 failed sign-ins for one e-mail address (50 from one client
 * address) within 15 minutes, further attempts are refused until the window has passed. Kept per
 * process (each API process counts on its own), which bounds guessing without a shared store.
 *
 * An attempt counts before its password is checked and is given back only when it succeeds, so a
 * burst of parallel attempts cannot all pass the limit while the first are still being checked.
 * At most MAX_KEYS keys are kept: a full table forgets its least recently used keys that are not at
 * their limit, so flooding it with new keys cannot free a refused address or account.
 */
@Injectable()
export class SignInThrottle {
  /** Attempt times per key, least recently used key first. */
  private readonly attempts = new Map<string, number[]>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** Counts an attempt under every key, or answers how long to wait (counting nothing) when one of them is at its limit. */
  admit(keys: readonly string[]): SignInAdmission {
    const now = this.clock.now().getTime();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= limitOf(key)) wait = Math.max(wait, Math.ceil((recent[0] + WINDOW_MS - now) / 1000));
    }
    if (wait > 0) return { retryAfterSeconds: wait };
    for (const key of keys) this.store(key, [...this.recent(key, now), now], now);
    return { attempt: { keys, at: now } };
  }

  /** The attempt signed in: its account's count is forgotten; the other keys (the client's address) get the attempt back. */
  succeeded(attempt: SignInAttempt): void {
    const [account, ...others] = attempt.keys;
    this.attempts.delete(account);
    for (const key of others) {
      const times = this.attempts.get(key);
      const index = times?.indexOf(attempt.at) ?? -1;
      if (times && index >= 0) times.splice(index, 1);
    }
  }

  private recent(key: string, now: number): number[] {
    return (this.attempts.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
  }

  private store(key: string, times: number[], now: number): void {
    this.attempts.delete(key);
    if (this.attempts.size >= MAX_KEYS) this.makeRoom(now);
    this.attempts.set(key, times);
  }

  /**
   * Forgets the least recently used tenth of the keys, passing over those at their limit (moved to
   * the back); only when there are not enough others do the least recently used of those go. One
   * walk for many keys: a Map walked from its front again for each key would cost a scan of every
   * key deleted before it.
   */
  private makeRoom(now: number): void {
    const target = this.attempts.size - Math.floor(MAX_KEYS * 0.9);
    const atLimit: Array<[string, number[]]> = [];
    let forgotten = 0;
    for (const [key, times] of this.attempts) {
      if (forgotten >= target) break;
      this.attempts.delete(key);
      const recent = times.filter((at) => at > now - WINDOW_MS);
      if (recent.length >= limitOf(key)) atLimit.push([key, recent]);
      else forgotten++;
    }
    for (const [key, times] of atLimit) {
      if (forgotten < target) forgotten++;
      else this.attempts.set(key, times);
    }
  }
}

function limitOf(key: string): number {
  return key.startsWith('ip:') ? MAX_FAILURES_PER_CLIENT : MAX_FAILURES;
}
