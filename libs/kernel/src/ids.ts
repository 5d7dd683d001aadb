import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newUuid = (): string => randomUUID();

/** A 32-hex identifier: a uuid4 without dashes, as Sentry uses for hook ids and DSN keys. */
export const newHexId = (): string => randomUUID().replace(/-/g, '');

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
