/** What one attempt came to, as the delivery engine sees it. */
export type AttemptOutcome =
  | { readonly kind: 'delivered' }
  /** Not worth retrying for this target: 410 Gone, or the address is refused by policy. */
  | { readonly kind: 'target-gone'; readonly reason: string }
  | { readonly kind: 'refused'; readonly reason: string }
  /** Final for this delivery only: the receiver stays in use. */
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'failed'; readonly retryAfterSeconds?: number };

/** The common rule: everything but a 2xx is retried, except 410 Gone; 429 and 503 say when in Retry-After. Kinds may be stricter. */
export function classifyResponse(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 410) return { kind: 'target-gone', reason: 'the receiver answered 410 Gone' };
  if (statusCode === 429 || statusCode === 503) return { kind: 'failed', retryAfterSeconds: parseRetryAfter(retryAfter, now) };
  return { kind: 'failed' };
}

/** `Retry-After` as seconds (delta or HTTP date), capped at a day; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const seconds = /^\d+$/.test(trimmed) ? Number(trimmed) : (Date.parse(trimmed) - now.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(86_400, Math.max(0, Math.ceil(seconds)));
}

/**
 * When to try again after `attempts` failed attempts: the schedule's next delay with ±20 % jitter
 * (so a receiver's outage does not come back as a thundering herd), and never sooner than the
 * receiver's Retry-After. Undefined once the schedule is used up.
 */
export function nextAttemptDelaySeconds(
  attempts: number,
  schedule: readonly number[],
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const base = schedule[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = base * (0.8 + 0.4 * random());
  return Math.max(jittered, retryAfterSeconds ?? 0);
}
