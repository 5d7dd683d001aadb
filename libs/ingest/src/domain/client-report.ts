import { isDataCategory } from './data-category';
import type { CountedOutcome } from './outcome';

/**
 * What one client report may add to the stats. The SDKs send one a minute at most, with a line per
 * category and reason, so these are far above real use; past them a report costs no more.
 */
export const CLIENT_REPORT_LIMITS = {
  /** Reports read per envelope (an SDK sends one); the others are ignored. */
  maxPerEnvelope: 5,
  /** Payload bytes read; a larger report is not parsed. */
  maxBytes: 16 * 1024,
  /** Lines counted per report, all lists together; the rest are left out. */
  maxEntries: 100,
  /** Largest quantity of one line (bytes, for attachments). */
  maxQuantity: 1_000_000_000,
} as const;

/**
 * The lists of a client report (`develop.sentry.dev/sdk/client-reports/`) and the reason of a line
 * whose own is not one of DISCARD_REASONS: `discarded_events` is what the SDK dropped; SDKs and
 * proxies also send the others.
 */
const LISTS: Readonly<Record<string, DiscardReason>> = {
  discarded_events: 'other',
  rate_limited_events: 'ratelimit_backoff',
  network_error_events: 'network_error',
  filtered_events: 'other',
  filtered_sampling_events: 'sample_rate',
};

/**
 * The discard reasons the SDKs document. A closed list: reasons are a key of the outcome rollup,
 * so a client inventing reasons would add rows without end; any other is counted as `other`.
 */
export const DISCARD_REASONS = [
  'queue_overflow',
  'cache_overflow',
  'buffer_overflow',
  'ratelimit_backoff',
  'network_error',
  'sample_rate',
  'before_send',
  'event_processor',
  'send_error',
  'internal_sdk_error',
  'insufficient_data',
  'backpressure',
  'ignored',
  'deduplicated',
  'other',
] as const;

export type DiscardReason = (typeof DISCARD_REASONS)[number];

const isDiscardReason = (value: unknown): value is DiscardReason => typeof value === 'string' && (DISCARD_REASONS as readonly string[]).includes(value);

/**
 * The client discards a client report tells of: one per line with a category Sentry knows, a whole
 * positive quantity (at most `maxQuantity`), under its reason. Anything else in the report is ignored,
 * as Relay ignores it: a client report is advisory, and a bad line says nothing about the others.
 */
export function clientDiscardsOf(payload: Buffer): CountedOutcome[] {
  if (payload.length > CLIENT_REPORT_LIMITS.maxBytes) return [];
  let report: unknown;
  try {
    report = JSON.parse(payload.toString('utf8'));
  } catch {
    return [];
  }
  if (!isObject(report)) return [];
  // One outcome per category and reason, however many lines name them.
  const discards = new Map<string, CountedOutcome>();
  let entries = 0;
  for (const [list, fallbackReason] of Object.entries(LISTS)) {
    const lines = report[list];
    if (!Array.isArray(lines)) continue;
    for (const line of lines) {
      if (entries++ >= CLIENT_REPORT_LIMITS.maxEntries) return [...discards.values()];
      if (!isObject(line) || !isDataCategory(line.category)) continue;
      const quantity = line.quantity;
      if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 1 || quantity > CLIENT_REPORT_LIMITS.maxQuantity) continue;
      const reason = isDiscardReason(line.reason) ? line.reason : fallbackReason;
      const key = `${line.category}|${reason}`;
      const sum = discards.get(key);
      discards.set(
        key,
        sum
          ? { ...sum, quantity: sum.quantity + quantity, timesSeen: sum.timesSeen + 1 }
          : { outcome: 'client_discard', reason, category: line.category, quantity, timesSeen: 1 },
      );
    }
  }
  return [...discards.values()];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
