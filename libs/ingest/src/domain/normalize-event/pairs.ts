import { EVENT_LIMITS } from './limits';
import { isObject, scalarText, truncate } from './fields';
import type { StringPairs } from './types';

/** An object (`{k: v}`, arrays joined) or a list of pairs, as SDKs send headers. */
export function pairsFrom(value: unknown, maxValue: number): StringPairs {
  const entries: unknown[][] = Array.isArray(value) ? value.filter(Array.isArray) : isObject(value) ? Object.entries(value) : [];
  const pairs: StringPairs = [];
  for (const [key, raw] of entries) {
    if (pairs.length >= EVENT_LIMITS.maxPairs) break;
    if (typeof key !== 'string' || key.trim() === '') continue;
    const text = Array.isArray(raw)
      ? raw
          .map(scalarText)
          .filter((part) => part !== undefined)
          .join(', ')
      : scalarText(raw);
    if (text === undefined) continue;
    pairs.push([truncate(key.trim(), EVENT_LIMITS.field), truncate(text, maxValue)]);
  }
  return pairs;
}

export function nonEmptyPairs(pairs: StringPairs): StringPairs | undefined {
  return pairs.length > 0 ? pairs : undefined;
}
