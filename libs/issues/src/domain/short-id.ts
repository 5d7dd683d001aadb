import { DomainError } from '@faultline/kernel';

/** Used when a project slug has no character that survives (e.g. "___"), so grouping never fails. */
export const FALLBACK_SHORT_ID_PREFIX = 'ISSUE';

const SHORT_ID_PATTERN = /^([A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?)-([1-9][0-9]*)$/;

/** The prefix of a project's short ids: the slug upper-cased, keeping only A-Z, 0-9 and inner dashes. */
export function shortIdPrefix(projectSlug: string): string {
  const prefix = projectSlug
    .toUpperCase()
    .replace(/[^A-Z0-9-]+/g, '')
    .replace(/^-+|-+$/g, '');
  return prefix || FALLBACK_SHORT_ID_PREFIX;
}

/**
 * An issue's human-readable id, as Sentry shows it: `WEB-1` for the first issue of project `web`.
 * The counter is the per-project sequence number (1-based), written in base 10.
 */
export function shortIdFor(projectSlug: string, counter: number): string {
  if (!Number.isSafeInteger(counter) || counter < 1) {
    throw DomainError.invalid('The short id counter must be a positive integer', { counter });
  }
  return `${shortIdPrefix(projectSlug)}-${counter}`;
}

/** Splits a short id (any case) into its prefix and counter; null when it is not one. */
export function parseShortId(shortId: string): { prefix: string; counter: number } | null {
  const match = SHORT_ID_PATTERN.exec(shortId.trim().toUpperCase());
  if (!match) return null;
  const counter = Number(match[2]);
  if (!Number.isSafeInteger(counter)) return null;
  return { prefix: match[1], counter };
}

export function isShortId(value: string): boolean {
  return SHORT_ID_PATTERN.test(value) && parseShortId(value) !== null;
}
