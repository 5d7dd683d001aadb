import { type DataCategory, isErrorCategory } from './data-category';
import type { DiscardReason } from './client-report';

/**
 * What became of an item, as Sentry's `Outcome` enum (`sentry/utils/outcomes.py`, in Relay's
 * order: the index is Sentry's number) names it in its stats API.
 */
export const OUTCOMES = ['accepted', 'filtered', 'rate_limited', 'invalid', 'abuse', 'client_discard', 'cardinality_limited'] as const;

export type Outcome = (typeof OUTCOMES)[number];

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
}

/**
 * Why an item was filtered: an inbound filter, by Sentry's filter stat keys (`FilterStatKeys`), or
 * an item type Faultline does not keep (`unsupported_item`).
 */
export type FilterReason = 'localhost' | 'error-message' | 'release-version' | 'unsupported_item';

/** Why an item was invalid, by Relay's `DiscardReason` names. */
export type InvalidReason =
  /** Not JSON. */
  | 'invalid_json'
  /** JSON, but not the shape the item type has (an event that is no object, a user report without comments). */
  | 'payload'
  /** Over a size limit. */
  | 'too_large'
  /** An event id the project has already stored. */
  | 'duplicate'
  /** Processing failed for good: the event is a dead letter. */
  | 'internal';

/** Why an item was rate limited: Sentry's reason codes of the quota that refused it. */
export type RateLimitReason = 'key_quota' | 'org_quota' | 'spike_protection' | 'storage_quota';

/** An outcome with the reason its kind takes: none when accepted, the SDK's own for a client discard. */
export type OutcomeKind =
  | { readonly outcome: 'accepted'; readonly reason: null }
  | { readonly outcome: 'filtered'; readonly reason: FilterReason }
  | { readonly outcome: 'rate_limited'; readonly reason: RateLimitReason }
  | { readonly outcome: 'invalid'; readonly reason: InvalidReason }
  | { readonly outcome: 'client_discard'; readonly reason: DiscardReason };

/** How much of a category an item counts for (events 1, attachments and logs their bytes too). */
export interface Quantity {
  readonly category: DataCategory;
  readonly quantity: number;
}

/** One outcome of some quantity of a category: what is recorded, summed, and rolled up. */
export type CountedOutcome = OutcomeKind & Quantity & { readonly timesSeen: number };

export const accepted: OutcomeKind = { outcome: 'accepted', reason: null };
export const filtered = (reason: FilterReason): OutcomeKind => ({ outcome: 'filtered', reason });
export const rateLimited = (reason: RateLimitReason): OutcomeKind => ({ outcome: 'rate_limited', reason });
export const invalid = (reason: InvalidReason): OutcomeKind => ({ outcome: 'invalid', reason });

/** Each quantity of an item with the outcome they had; the item is seen once per category. */
export function outcomesOf(quantities: readonly Quantity[], kind: OutcomeKind): CountedOutcome[] {
  return quantities.map((quantity) => ({ ...kind, ...quantity, timesSeen: 1 }));
}

/**
 * Outcomes once a quota has limited some categories: an item of a limited category that would have
 * been filtered is rate limited instead, as Relay enforces quotas before it filters.
 */
export function underRateLimits(outcomes: readonly CountedOutcome[], limited: ReadonlySet<DataCategory>, reason: RateLimitReason): CountedOutcome[] {
  return outcomes.map((outcome) => (outcome.outcome === 'filtered' && limited.has(outcome.category) ? { ...outcome, ...rateLimited(reason) } : outcome));
}

/** Faultline's inbound filters by the names Sentry's outcomes give them. */
const FILTER_STAT_KEYS = { localhost: 'localhost', 'error-messages': 'error-message', releases: 'release-version' } as const;

export function filterReasonOf(filter: keyof typeof FILTER_STAT_KEYS): FilterReason {
  return FILTER_STAT_KEYS[filter];
}

/** The legacy project stats (`/projects/{org}/{project}/stats/`). */
export type LegacyStat = 'received' | 'rejected' | 'blacklisted' | 'generated';

/**
 * The legacy stats an outcome counts in, as Sentry's outcome-backed TSDB models do: error events
 * only; `received` is accepted, filtered and rate limited (not invalid, not client discards),
 * `rejected` rate limited, `blacklisted` filtered; `generated` (Faultline's) the events stored.
 */
export function legacyStatsOf(outcome: Outcome, category: DataCategory): LegacyStat[] {
  if (!isErrorCategory(category)) return [];
  switch (outcome) {
    case 'accepted':
      return ['received', 'generated'];
    case 'filtered':
      return ['received', 'blacklisted'];
    case 'rate_limited':
      return ['received', 'rejected'];
    default:
      return [];
  }
}
