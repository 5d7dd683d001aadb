import { isNumericId } from '@faultline/kernel';

/**
 * Where a Sentry SDK puts its project key. SDKs use one of three places, in this order of
 * preference (the order Relay uses): the `X-Sentry-Auth` (or `Authorization: Sentry ...`) header,
 * the `sentry_key` query parameter (browsers, which cannot set headers on beacons), and the `dsn`
 * in an envelope's header (the tunnel option of the JavaScript SDK, which strips all auth).
 */

export interface SentryAuthInput {
  /** Value of `X-Sentry-Auth`, or of `Authorization` when it starts with `Sentry`. */
  authHeader?: string | null;
  /** Parsed query string; repeated parameters may arrive as arrays. */
  query?: Readonly<Record<string, unknown>> | null;
  /** The `dsn` field of an envelope header. */
  envelopeDsn?: string | null;
}

export interface SentryCredentials {
  publicKey: string;
  /** `sentry_client`, e.g. `sentry.javascript.node/8.0.0`, when the SDK named itself. */
  client?: string;
  /** Where the key came from; an endpoint may log or meter by it. */
  source: 'header' | 'query' | 'dsn';
  /** Only when the key came from a DSN: its project, which must match the URL's project. */
  projectId?: string;
}

export interface ParsedDsn {
  publicKey: string;
  projectId: string;
}

/** The fields of an `X-Sentry-Auth` header, keys without their `sentry_` prefix. */
export interface SentryAuthHeader {
  key?: string;
  version?: string;
  client?: string;
  secret?: string;
  timestamp?: string;
}

// Keys are 32 hex in Sentry and Faultline; accepting any short token keeps older custom keys
// working while refusing garbage (spaces, quotes) that would end up in logs and lookups.
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CLIENT_LENGTH = 200;
const MAX_HEADER_LENGTH = 4096;

/**
 * Parses `Sentry sentry_key=..., sentry_version=7, ...`. Tolerant like Relay: the `Sentry`
 * prefix is optional, spacing around `,` and `=` is free, pairs may be separated by spaces only,
 * values may be quoted and keys may omit the `sentry_` prefix.
 */
export function parseAuthHeader(header: string | null | undefined): SentryAuthHeader | null {
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return null;
  const text = header.trim().replace(/^sentry(?=\s|$)/i, '');
  const fields: SentryAuthHeader = {};
  let found = false;
  const pair = /([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("[^"]*"|[^,\s]*)/g;
  for (const match of text.matchAll(pair)) {
    const name = match[1].toLowerCase().replace(/^sentry_/, '');
    const raw = match[2];
    const value = raw.startsWith('"') ? raw.slice(1, -1).trim() : raw.trim();
    if (!value) continue;
    if (name === 'key' || name === 'version' || name === 'client' || name === 'secret' || name === 'timestamp') {
      // The first occurrence wins so a later duplicate cannot override the key.
      if (fields[name] === undefined) fields[name] = value;
      found = true;
    }
  }
  return found ? fields : null;
}

/**
 * Parses a DSN `scheme://publicKey[:secret]@host[:port][/prefix]/projectId`. The project id is the
 * last path segment, so a Faultline served under a path prefix works.
 */
export function parseDsn(dsn: string | null | undefined): ParsedDsn | null {
  if (typeof dsn !== 'string' || dsn.length === 0 || dsn.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(dsn.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const publicKey = safeDecode(url.username);
  if (!publicKey || !KEY_PATTERN.test(publicKey)) return null;
  const segments = url.pathname.split('/').filter((segment) => segment.length > 0);
  const projectId = segments.at(-1);
  if (!projectId || !isNumericId(projectId)) return null;
  return { publicKey, projectId };
}

/** The project key of a request, or null when none of the three places carries a usable one. */
export function publicKeyFrom(input: SentryAuthInput): SentryCredentials | null {
  const header = parseAuthHeader(input.authHeader);
  if (header?.key && KEY_PATTERN.test(header.key)) {
    return withClient({ publicKey: header.key, source: 'header' }, header.client);
  }

  const query = input.query ?? undefined;
  const queryKey = firstString(query?.['sentry_key']);
  if (queryKey && KEY_PATTERN.test(queryKey)) {
    return withClient({ publicKey: queryKey, source: 'query' }, firstString(query?.['sentry_client']));
  }

  const dsn = parseDsn(input.envelopeDsn);
  if (dsn) return { publicKey: dsn.publicKey, source: 'dsn', projectId: dsn.projectId };
  return null;
}

function withClient(credentials: SentryCredentials, client: string | undefined): SentryCredentials {
  const trimmed = client?.trim();
  return trimmed ? { ...credentials, client: trimmed.slice(0, MAX_CLIENT_LENGTH) } : credentials;
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}
