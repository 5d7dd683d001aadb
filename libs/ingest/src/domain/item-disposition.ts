import type { DataCategory } from './data-category';
import type { EnvelopeItem, EnvelopeItemType } from './envelope';
import { filtered, type OutcomeKind, type Quantity } from './outcome';

/**
 * What Faultline does with an item of each type:
 * - `process`: queued for the event processor, which records its outcome (accepted when stored);
 * - `keep`: stored at admission (user reports), accepted then;
 * - `client_report`: the SDK's own account of what it dropped, recorded as client discards;
 * - an outcome: counted at admission, never kept (an item type Faultline does not keep).
 */
export type ItemFate = 'process' | 'keep' | 'client_report' | OutcomeKind;

interface ItemRule {
  /** What one item counts for, per category (Relay's `Item::quantities`). */
  readonly count: (item: EnvelopeItem) => readonly Quantity[];
  readonly fate: ItemFate;
}

const NOT_KEPT = filtered('unsupported_item');
const one = (category: DataCategory) => (): readonly Quantity[] => [{ category, quantity: 1 }];
/** Containers (logs, spans) say how many they hold in `item_count`, as Relay reads it. */
const itemCount = (item: EnvelopeItem): number => {
  const count = item.header.item_count;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 1;
};
const bytes = (item: EnvelopeItem): number => Math.max(1, item.payload.length);

/**
 * The one table of item types: the categories each counts under and its fate. `keep`: handed to
 * the context that keeps it before the answer (user reports, attachments, check-ins, sessions).
 */
export const ITEM_RULES: Readonly<Record<EnvelopeItemType, ItemRule>> = {
  event: { count: one('error'), fate: 'process' },
  user_report: { count: one('feedback'), fate: 'keep' },
  feedback: { count: one('feedback'), fate: 'keep' },
  client_report: { count: () => [], fate: 'client_report' },
  session: { count: one('session'), fate: 'keep' },
  sessions: { count: one('session'), fate: 'keep' },
  check_in: { count: one('monitor'), fate: 'keep' },
  transaction: { count: one('transaction'), fate: NOT_KEPT },
  span: { count: (item) => [{ category: 'span', quantity: itemCount(item) }], fate: NOT_KEPT },
  attachment: { count: (item) => [{ category: 'attachment', quantity: bytes(item) }], fate: 'keep' },
  profile: { count: one('profile'), fate: NOT_KEPT },
  replay_event: { count: one('replay'), fate: NOT_KEPT },
  replay_recording: { count: one('replay'), fate: NOT_KEPT },
  replay_video: { count: one('replay'), fate: NOT_KEPT },
  profile_chunk: { count: one('profile_chunk'), fate: NOT_KEPT },
  trace_metric: { count: (item) => [{ category: 'trace_metric', quantity: itemCount(item) }], fate: NOT_KEPT },
  statsd: { count: one('metric_bucket'), fate: NOT_KEPT },
  log: {
    count: (item) => [
      { category: 'log_item', quantity: itemCount(item) },
      { category: 'log_byte', quantity: bytes(item) },
    ],
    fate: NOT_KEPT,
  },
  // An item type this version does not know has no category (Relay counts none either).
  other: { count: () => [], fate: NOT_KEPT },
};

/** An item's quantities; an event's category follows its payload's `type` (see `categoryOfEvent`). */
export function quantitiesOf(item: EnvelopeItem, eventCategory: DataCategory = 'error'): readonly Quantity[] {
  return item.type === 'event' ? [{ category: eventCategory, quantity: 1 }] : ITEM_RULES[item.type].count(item);
}

export function fateOf(type: EnvelopeItemType): ItemFate {
  return ITEM_RULES[type].fate;
}
