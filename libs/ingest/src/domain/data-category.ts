/**
 * Sentry's data categories (Relay's `DataCategory`, `relay-base-schema/src/data_category.rs`), by
 * the names its stats API and the SDKs' client reports use. The categories Faultline counts, and
 * those an SDK may name in a client report; Relay's numbers are not needed (nothing here speaks
 * Relay's binary protocol).
 */
export const DATA_CATEGORIES = [
  'default',
  'error',
  'transaction',
  'security',
  'attachment',
  'attachment_item',
  'session',
  'profile',
  'profile_chunk',
  'profile_chunk_ui',
  'replay',
  'monitor',
  'span',
  'feedback',
  'metric_bucket',
  'log_item',
  'log_byte',
  'trace_metric',
] as const;

export type DataCategory = (typeof DATA_CATEGORIES)[number];

const KNOWN: ReadonlySet<string> = new Set(DATA_CATEGORIES);

export function isDataCategory(value: unknown): value is DataCategory {
  return typeof value === 'string' && KNOWN.has(value);
}

/**
 * The categories Sentry counts as error events (`DataCategory.error_categories()`): its legacy
 * project stats count only these, and its stats API shows them together as `error`.
 */
export const ERROR_CATEGORIES: readonly DataCategory[] = ['default', 'error', 'security'];

export function isErrorCategory(category: DataCategory): boolean {
  return ERROR_CATEGORIES.includes(category);
}

/** Security reports' event types (CSP, HPKP, Expect-CT, Expect-Staple), as Relay names them. */
const SECURITY_EVENT_TYPES: ReadonlySet<string> = new Set(['csp', 'hpkp', 'expectct', 'expectstaple']);

/**
 * The category of an event payload by its `type`, as Relay's `From<EventType> for DataCategory`:
 * security reports are `security`, transactions `transaction`, and every other event (an error, a
 * `default` message event without an exception, an unknown type) is `error`. Relay keeps the
 * `default` category reserved and never counts events under it.
 */
export function categoryOfEvent(type: unknown): DataCategory {
  if (typeof type !== 'string') return 'error';
  if (SECURITY_EVENT_TYPES.has(type)) return 'security';
  if (type === 'transaction') return 'transaction';
  if (type === 'feedback') return 'feedback';
  return 'error';
}
