/**
 * Rate limits as Sentry's `X-Sentry-Rate-Limits` header describes them
 * (https://develop.sentry.dev/sdk/expected-features/rate-limiting/): each limit names the data
 * categories it drops, its scope and a reason; an SDK keeps sending every category not named.
 * A burst of one category therefore limits that category only.
 */

/** What a quota counts: items of these kinds. Items of no quota category are never limited. */
export const QUOTA_CATEGORIES = ['error', 'user_report', 'check_in', 'session'] as const;
export type QuotaCategory = (typeof QUOTA_CATEGORIES)[number];

export type QuotaScope = 'key' | 'organization';
export type QuotaReason = 'key_quota' | 'org_quota' | 'spike_protection';

/**
 * The categories of a DSN key's rate limit. Sentry's key quota covers the error categories only
 * (`DataCategory.error_categories()`); user reports are counted too, in a window of their own
 * (Sentry bounds feedback apart from errors), because Faultline stores each one and a key would
 * otherwise send them without end.
 */
export const KEY_QUOTA_CATEGORIES: readonly QuotaCategory[] = ['error', 'user_report'];

/**
 * The categories an SDK reads in the header, per quota category. Errors as Sentry's quotas name
 * them (`default`, `error`, `security`); user reports as `feedback`, the category SDKs give
 * feedback items (the legacy `user_report` item they count as `default`, which would stop their
 * errors too); check-ins as `monitor`.
 */
const HEADER_CATEGORIES: Record<QuotaCategory, string> = {
  error: 'default;error;security',
  user_report: 'feedback',
  check_in: 'monitor',
  session: 'session',
};

/** The quota category of an envelope item type (`event` of the store endpoint too). */
export function quotaCategoryOf(itemType: string): QuotaCategory | null {
  switch (itemType) {
    case 'event':
      return 'error';
    case 'user_report':
    case 'feedback':
      return 'user_report';
    case 'check_in':
      return 'check_in';
    case 'session':
    case 'sessions':
      return 'session';
    default:
      return null;
  }
}

/** Items per quota category in an envelope of these item types. */
export function quotaQuantities(itemTypes: readonly string[]): Partial<Record<QuotaCategory, number>> {
  const quantities: Partial<Record<QuotaCategory, number>> = {};
  for (const type of itemTypes) {
    const category = quotaCategoryOf(type);
    if (category) quantities[category] = (quantities[category] ?? 0) + 1;
  }
  return quantities;
}

/** Per item of the envelope, the limit that drops it, or null for an item that is kept. */
export function droppedItems(itemTypes: readonly string[], limits: readonly RateLimit[]): Array<RateLimit | null> {
  return itemTypes.map((type) => limits.find((limit) => limit.category === quotaCategoryOf(type)) ?? null);
}

/** One quota in force: at most `limit` items of `category` per window of its scope. */
export interface Quota {
  readonly scope: QuotaScope;
  readonly category: QuotaCategory;
  readonly limit: number;
}

/** A window's total once this envelope is counted in it, and when the window ends. */
export interface WindowCount {
  readonly scope: QuotaScope;
  readonly category: QuotaCategory;
  readonly count: number;
  readonly windowEnds: Date;
}

/** A category of this envelope that is dropped, by which scope, and for how long. */
export interface RateLimit {
  readonly category: QuotaCategory;
  readonly scope: QuotaScope;
  readonly reason: QuotaReason;
  readonly retryAfterSeconds: number;
}

const REASONS: Record<QuotaScope, QuotaReason> = { key: 'key_quota', organization: 'org_quota' };

export interface RateLimitInput {
  /** Items per category in this envelope. */
  readonly quantities: Partial<Record<QuotaCategory, number>>;
  readonly quotas: readonly Quota[];
  /** The windows the envelope was counted in. */
  readonly counts: readonly WindowCount[];
  /** Until when the organization's errors are dropped by spike protection, if they are. */
  readonly spikeLimitedUntil: Date | null;
  readonly now: Date;
}

/**
 * The categories of an envelope that are dropped: a category sent and over a quota of its own
 * (its window's count past the limit), or errors during a spike. A category over several limits is
 * named once, with the longest wait (Sentry answers the worst case).
 */
export function decideRateLimits(input: RateLimitInput): RateLimit[] {
  const limits = new Map<QuotaCategory, RateLimit>();
  const consider = (limit: RateLimit) => {
    const known = limits.get(limit.category);
    if (!known || known.retryAfterSeconds < limit.retryAfterSeconds) limits.set(limit.category, limit);
  };
  const sent = (category: QuotaCategory) => (input.quantities[category] ?? 0) > 0;
  for (const count of input.counts) {
    if (!sent(count.category)) continue;
    const quota = input.quotas.find((q) => q.scope === count.scope && q.category === count.category);
    if (!quota || count.count <= quota.limit) continue;
    consider({ category: count.category, scope: count.scope, reason: REASONS[count.scope], retryAfterSeconds: secondsUntil(count.windowEnds, input.now) });
  }
  if (input.spikeLimitedUntil && input.spikeLimitedUntil > input.now && sent('error')) {
    consider({ category: 'error', scope: 'organization', reason: 'spike_protection', retryAfterSeconds: secondsUntil(input.spikeLimitedUntil, input.now) });
  }
  return QUOTA_CATEGORIES.flatMap((category) => limits.get(category) ?? []);
}

function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

/**
 * `X-Sentry-Rate-Limits`: `retry_after:categories:scope:reason_code`, comma separated; limits that
 * share a wait, scope and reason go as one, their categories joined by `;`. Never an empty
 * category list, which would mean every category.
 */
export function rateLimitsHeader(limits: readonly RateLimit[]): string {
  const groups = new Map<string, string[]>();
  for (const limit of limits) {
    const key = `${limit.retryAfterSeconds}\u0000${limit.scope}\u0000${limit.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), HEADER_CATEGORIES[limit.category]]);
  }
  return [...groups]
    .map(([key, categories]) => {
      const [retryAfter, scope, reason] = key.split('\u0000');
      return `${retryAfter}:${categories.join(';')}:${scope}:${reason}`;
    })
    .join(', ');
}

/** `Retry-After` of a 429: the longest wait, so a client that reads only it misses nothing it may send. */
export function retryAfterSeconds(limits: readonly RateLimit[]): number {
  return Math.max(1, ...limits.map((limit) => limit.retryAfterSeconds));
}

/**
 * Whether a change of an organization's own quotas is refused, and why. The instance's quotas
 * protect the instance from its tenants: an organization's owner may only set quotas within them
 * (lower, or any where the instance sets none) and may not lift them; an instance administrator
 * may set any.
 */
export function refusedQuotaChange(
  change: Partial<Record<QuotaCategory, number | null>>,
  instanceQuotas: Partial<Record<QuotaCategory, number>>,
  instanceAdministrator: boolean,
): string | null {
  if (instanceAdministrator) return null;
  for (const category of QUOTA_CATEGORIES) {
    const instance = instanceQuotas[category];
    const wanted = change[category];
    if (instance === undefined || wanted === undefined || wanted === null) continue;
    if (wanted > instance) return `quotas.${category}: the instance allows at most ${instance} per window; only an instance administrator may set more`;
  }
  return null;
}
