import { EVENT_LIMITS } from './limits';

// Reading one field of an SDK payload: wrong types are ignored, strings are bounded.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a field or its legacy `sentry.interfaces.*` alias. */
export function field(raw: Record<string, unknown>, name: string, alias: string): unknown {
  return raw[name] ?? raw[alias];
}

/** A trimmed, non-empty string, truncated; anything else is ignored. */
export function str(value: unknown, max: number = EVENT_LIMITS.message): string | undefined {
  if (typeof value !== 'string') return undefined;
  return nonEmpty(truncate(value.trim(), max));
}

export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Cuts to `max` UTF-16 units without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Sets an optional property only when it has a value, so stored JSON has no undefined keys. */
export function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
