import { EVENT_LIMITS } from './limits';
import { scalarText, truncate } from './fields';

/** The SDK's own grouping key, entries as text. */
export function normalizeFingerprint(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const entries = value
    .map(scalarText)
    .filter((entry): entry is string => entry !== undefined && entry !== '')
    .slice(0, EVENT_LIMITS.fingerprintEntries)
    .map((entry) => truncate(entry, EVENT_LIMITS.fingerprintEntry));
  return entries.length > 0 ? entries : undefined;
}
