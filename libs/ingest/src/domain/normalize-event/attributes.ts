import { EVENT_LIMITS } from './limits';
import { str } from './fields';
import type { EventLevel } from './types';

// The event's scalar attributes: time, level, platform, release, environment.

const LEVELS: Readonly<Record<string, EventLevel>> = {
  fatal: 'fatal',
  critical: 'fatal',
  error: 'error',
  warning: 'warning',
  warn: 'warning',
  info: 'info',
  log: 'info',
  debug: 'debug',
};

// Python logging's numeric levels, which some SDKs forward verbatim.
const NUMERIC_LEVELS: Readonly<Record<number, EventLevel>> = { 10: 'debug', 20: 'info', 30: 'warning', 40: 'error', 50: 'fatal' };

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Seconds since the epoch (fractional) or an RFC 3339 string; no zone means UTC, as in Relay. */
export function parseTimestamp(value: unknown): Date | undefined {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+(?:\.\d+)?$/.test(text)) ms = Number(text) * 1000;
    else {
      const match = ISO_TIMESTAMP.exec(text);
      if (match) {
        const [, date, time, zone] = match;
        const offset = !zone ? 'Z' : zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
        ms = Date.parse(time ? `${date}T${time}${offset}` : `${date}T00:00:00${offset}`);
      }
    }
  }
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0 || ms > 8.64e15) return undefined;
  return new Date(ms);
}

export function normalizeTimestamp(value: unknown, receivedAt: Date): string {
  const parsed = parseTimestamp(value);
  const received = receivedAt.getTime();
  if (!parsed) return receivedAt.toISOString();
  const time = parsed.getTime();
  // A skewed client clock must not put events into the future or before retention.
  if (time > received + EVENT_LIMITS.maxFutureMs || time < received - EVENT_LIMITS.maxPastMs) return receivedAt.toISOString();
  return parsed.toISOString();
}

export function normalizeLevel(value: unknown): EventLevel {
  if (typeof value === 'string') return LEVELS[value.trim().toLowerCase()] ?? 'error';
  if (typeof value === 'number') return NUMERIC_LEVELS[value] ?? 'error';
  return 'error';
}

export function normalizePlatform(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const platform = value.trim().toLowerCase();
  return /^[a-z][a-z0-9._-]{0,63}$/.test(platform) ? platform : undefined;
}

// Relay's rules: names that break URLs or the UI are dropped, not repaired.
export function normalizeRelease(value: unknown): string | undefined {
  const release = typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
  if (!release || release.length > EVENT_LIMITS.release) return undefined;
  if (release === '.' || release === '..' || release.toLowerCase() === 'latest') return undefined;
  return /[\r\n\t\f\v/\\]/.test(release) ? undefined : release;
}

export function normalizeEnvironment(value: unknown): string | undefined {
  const environment = str(value);
  if (!environment || environment.length > EVENT_LIMITS.shortField || environment === 'None') return undefined;
  return /[\r\n\t\f\v/]/.test(environment) ? undefined : environment;
}
