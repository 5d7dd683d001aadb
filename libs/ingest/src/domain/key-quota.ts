/**
 * A DSN key's rate limit (`count` per `window`), counted per data category as Sentry's
 * `X-Sentry-Rate-Limits` header describes it: a burst of one category limits that category only.
 * Every category the service stores is counted: error events, and user reports (Sentry counts only
 * errors against a key, so user reports were free to send without end).
 */
export type QuotaCategory = 'error' | 'user_report';

/**
 * The categories an SDK reads in the header, per counted category. Errors as Sentry's key quota
 * names them (`DataCategory.error_categories()`); user reports as `feedback`, the category the
 * SDKs give feedback items (the legacy `user_report` item they count as `default`, which would stop
 * their errors too).
 */
const HEADER_CATEGORIES: Record<QuotaCategory, string> = { error: 'default;error;security', user_report: 'feedback' };

export interface QuotaLimit {
  readonly category: QuotaCategory;
  readonly retryAfterSeconds: number;
}

/** `X-Sentry-Rate-Limits`: `retry_after:categories:scope:reason_code`, comma separated. */
export function rateLimitsHeader(limits: readonly QuotaLimit[]): string {
  return limits.map((limit) => `${limit.retryAfterSeconds}:${HEADER_CATEGORIES[limit.category]}:key:key_quota`).join(', ');
}
