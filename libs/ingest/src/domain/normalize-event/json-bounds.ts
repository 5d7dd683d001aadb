import { EVENT_LIMITS } from './limits';
import { isObject, nonEmpty, scalarText, truncate } from './fields';
import type { JsonObject, JsonValue } from './types';

/** How deep, long and wide a bag of SDK data may be. */
export interface JsonBounds {
  readonly depth: number;
  readonly string: number;
  readonly array: number;
  readonly keys: number;
}

const DATA_BOUNDS: JsonBounds = { depth: EVENT_LIMITS.dataDepth, string: EVENT_LIMITS.dataString, array: EVENT_LIMITS.dataArray, keys: EVENT_LIMITS.dataKeys };

export function boundObject(value: Record<string, unknown>): JsonObject {
  return boundJson(value, 0) as JsonObject;
}

/** An object bounded by the small bags' limits; anything else is dropped. */
export function smallObject(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const bounded = boundJson(value, 0, EVENT_LIMITS.smallData) as JsonObject;
  return Object.keys(bounded).length > 0 ? bounded : undefined;
}

/**
 * A JSON-safe value with bounded depth, string length and collection sizes. What is already
 * within bounds is returned as it is (SDK payloads mostly are), so only what must change is
 * copied. A `__proto__` key stays an ordinary key.
 */
export function boundJson(value: unknown, depth: number, bounds: JsonBounds = DATA_BOUNDS): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return truncate(value, bounds.string);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    if (depth >= bounds.depth) return '[Array]';
    let copy: JsonValue[] | undefined = value.length > bounds.array ? value.slice(0, bounds.array) : undefined;
    const length = Math.min(value.length, bounds.array);
    for (let index = 0; index < length; index++) {
      const entry = value[index];
      const bounded = boundJson(entry, depth + 1, bounds);
      if (bounded !== entry) (copy ??= value.slice(0, length))[index] = bounded;
      else if (copy) copy[index] = bounded;
    }
    return copy ?? (value as JsonValue[]);
  }
  if (isObject(value)) {
    if (depth >= bounds.depth) return '[Object]';
    const keys = Object.keys(value);
    let copy: JsonObject | undefined;
    const count = Math.min(keys.length, bounds.keys);
    for (let index = 0; index < count; index++) {
      const key = keys[index];
      const entry = value[key];
      const skipped = entry === undefined || typeof entry === 'function' || typeof entry === 'symbol';
      const bounded = skipped ? undefined : boundJson(entry, depth + 1, bounds);
      const boundedKey = truncate(key, EVENT_LIMITS.field);
      if (!copy && (skipped || bounded !== entry || boundedKey !== key)) copy = copyOf(value, keys.slice(0, index));
      if (copy && bounded !== undefined) setOwn(copy, boundedKey, bounded);
    }
    if (!copy && keys.length > count) copy = copyOf(value, keys.slice(0, count));
    return copy ?? (value as JsonObject);
  }
  return null;
}

function copyOf(source: Record<string, unknown>, keys: string[]): JsonObject {
  const copy: JsonObject = {};
  for (const key of keys) setOwn(copy, key, source[key] as JsonValue);
  return copy;
}

/** Assignment would make a `__proto__` key the prototype; a defined property stays data. */
function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Relay's lenient string: scalars stringified, objects serialised. */
export function lenientString(value: unknown, max: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return nonEmpty(truncate(value, max));
  if (typeof value === 'object') return nonEmpty(safeStringify(value, max));
  return scalarText(value);
}

export function safeStringify(value: unknown, max: number): string {
  try {
    return truncate(JSON.stringify(boundJson(value, 0)) ?? '', max);
  } catch {
    return '';
  }
}
