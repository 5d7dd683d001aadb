import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newUuid = (): string => randomUUID();

/** A 32-hex identifier: a uuid4 without dashes, as Sentry uses for hook ids and DSN keys. */
export const newHexId = (): string => randomUUID().replace(/-/g, '');

const HEX_ID = /^[0-9a-f]{32}$/;

/** Whether `value` is a 32-hex id as `newHexId` makes them (hook ids, DSN keys): lowercase, no dashes. */
export const isHexId = (value: string): boolean => HEX_ID.test(value);

const EVENT_ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const NIL_EVENT_ID = '0'.repeat(32);

/**
 * An event id as Sentry (Relay) reads one: 32 hex digits, or a UUID with its dashes, in either
 * case; answered as 32 lowercase hex digits, or undefined for anything else. The nil id (all
 * zeros) is an event id: an SDK's answer and a user report may name it.
 */
export function normalizeEventId(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !EVENT_ID.test(raw)) return undefined;
  return (raw.length === 32 ? raw : raw.replace(/-/g, '')).toLowerCase();
}

/**
 * As `normalizeEventId`, but the nil id is none: an event is stored under an id of its own (its
 * envelope's, else a new one) rather than the one every SDK sending zeros would share.
 */
export function normalizeNonNilEventId(raw: unknown): string | undefined {
  const id = normalizeEventId(raw);
  return id === NIL_EVENT_ID ? undefined : id;
}

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

const SLUG_PATTERN = /^(?![0-9]+$)[a-z0-9_-]+$/;

export function isValidSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= 50 && SLUG_PATTERN.test(slug);
}

/** Derives a slug from a display name: lower case, dashes for runs of other characters. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  if (!slug) return 'x';
  return /^[0-9]+$/.test(slug) ? `${slug}-x` : slug;
}

const MAX_BIGINT = 9223372036854775807n;

/** A row id as clients send it: digits only, within PostgreSQL's bigint (a longer number is no id, not an error). */
export function isNumericId(value: string): boolean {
  return /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_BIGINT;
}
