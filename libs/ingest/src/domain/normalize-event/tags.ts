import { EVENT_LIMITS } from './limits';
import { isObject, scalarText, truncate } from './fields';
import type { StringPairs } from './types';

/** The SDK's tags, in the order sent: the first of a key wins, empty values are dropped. */

export function normalizeTags(value: unknown): StringPairs {
  const entries: unknown[][] = Array.isArray(value) ? value.filter(Array.isArray) : isObject(value) ? Object.entries(value) : [];
  const tags: StringPairs = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (tags.length >= EVENT_LIMITS.maxTags) break;
    const [rawKey, rawValue] = entry;
    if (typeof rawKey !== 'string') continue;
    const key = truncate(rawKey.trim(), EVENT_LIMITS.tagKey);
    const text = scalarText(rawValue);
    if (!key || text === undefined || seen.has(key)) continue;
    const tagValue = truncate(text.trim(), EVENT_LIMITS.tagValue);
    if (!tagValue) continue;
    seen.add(key);
    tags.push([key, tagValue]);
  }
  return tags;
}
