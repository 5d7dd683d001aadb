import { EVENT_LIMITS } from './limits';
import { isObject, truncate } from './fields';
import { boundJson } from './json-bounds';
import type { JsonObject } from './types';

/** Each context is an object (Relay drops others); what is in it is kept, bounded. */
export function normalizeContexts(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const contexts = Object.fromEntries(
    Object.entries(value)
      .filter(([, context]) => isObject(context))
      .slice(0, EVENT_LIMITS.dataKeys)
      .map(([key, context]) => [truncate(key, EVENT_LIMITS.field), boundJson(context, 1)]),
  );
  return Object.keys(contexts).length > 0 ? contexts : undefined;
}
