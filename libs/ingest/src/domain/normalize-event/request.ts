import { EVENT_LIMITS } from './limits';
import { storableText } from '../storable-text';
import { assign, isObject, nonEmpty, str, truncate } from './fields';
import { boundJson, smallObject } from './json-bounds';
import { nonEmptyPairs, pairsFrom } from './pairs';
import type { JsonValue, NormalizedRequest, StringPairs } from './types';

/** The HTTP request: URL split as Relay does, headers, query, cookies and body as pairs or bounded JSON. */
export function normalizeRequest(value: unknown): NormalizedRequest | undefined {
  if (!isObject(value)) return undefined;
  const request: NormalizedRequest = {};
  const url = str(value.url, EVENT_LIMITS.url);
  const method = str(value.method)?.toUpperCase();
  if (method && /^[A-Z_-]{1,32}$/.test(method)) request.method = method;
  let headers = pairsFrom(value.headers, EVENT_LIMITS.headerValue);
  // Sentry's field is `query_string`; `query` is accepted as well.
  let query = queryPairs(value.query_string ?? value.query);
  let fragment = str(value.fragment, EVENT_LIMITS.url);
  if (url) {
    // Relay moves the URL's query and fragment into their fields; fields the SDK set win.
    const [withoutFragment, urlFragment] = splitOnce(url, '#');
    const [path, urlQuery] = splitOnce(withoutFragment, '?');
    request.url = path;
    if (query.length === 0 && urlQuery) query = queryPairs(urlQuery);
    fragment ??= nonEmpty(urlFragment);
  }
  // A Cookie header becomes the cookies (unless the SDK sent them), as Relay does.
  const cookieHeader = headers.find(([name]) => name.toLowerCase() === 'cookie');
  if (cookieHeader) headers = headers.filter((header) => header !== cookieHeader);
  const cookies = value.cookies !== undefined && value.cookies !== null ? cookiePairs(value.cookies) : cookiePairs(cookieHeader?.[1]);
  assign(request, 'headers', nonEmptyPairs(headers));
  assign(request, 'query', nonEmptyPairs(query));
  assign(request, 'fragment', fragment);
  assign(request, 'cookies', nonEmptyPairs(cookies));
  const body = value.data === undefined || value.data === null ? undefined : requestBody(value.data);
  if (body) request.data = body.data;
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  assign(request, 'inferredContentType', body?.contentType ?? nonEmpty(contentType?.split(';')[0].trim().toLowerCase()));
  assign(request, 'env', isObject(value.env) ? smallObject(value.env) : undefined);
  return Object.keys(request).length > 0 ? request : undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

const FORM_BODY = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/**
 * A string body that is JSON or a form is kept parsed, with the content type it showed. Bodies
 * too long to parse cheaply are kept as text, cut like any string.
 */
function requestBody(value: unknown): { data: JsonValue; contentType?: string } {
  if (typeof value !== 'string' || value.length > EVENT_LIMITS.dataString * 16) return { data: boundJson(value, 0) };
  const text = value.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return { data: boundJson(JSON.parse(text), 0), contentType: 'application/json' };
    } catch {
      return { data: boundJson(value, 0) };
    }
  }
  if (FORM_BODY.test(text)) {
    const pairs = queryPairs(text);
    return { data: Object.fromEntries(pairs), contentType: 'application/x-www-form-urlencoded' };
  }
  return { data: boundJson(value, 0) };
}

/** `a=1; b=2`, an object or pairs. */
function cookiePairs(value: unknown): StringPairs {
  if (typeof value !== 'string') return pairsFrom(value, EVENT_LIMITS.headerValue);
  const pairs: StringPairs = [];
  for (const part of value.split(';')) {
    if (pairs.length >= EVENT_LIMITS.maxPairs) break;
    const [name, text] = splitOnce(part, '=');
    if (name.trim() === '') continue;
    pairs.push([truncate(name.trim(), EVENT_LIMITS.field), truncate((text ?? '').trim(), EVENT_LIMITS.headerValue)]);
  }
  return pairs;
}

function queryPairs(value: unknown): StringPairs {
  if (typeof value !== 'string') return pairsFrom(value, EVENT_LIMITS.url);
  const pairs: StringPairs = [];
  for (const [key, text] of new URLSearchParams(value.replace(/^\?/, ''))) {
    if (pairs.length >= EVENT_LIMITS.maxPairs) break;
    // Percent-decoding makes characters of its own: `%00` is a NUL.
    pairs.push([truncate(storableText(key), EVENT_LIMITS.field), truncate(storableText(text), EVENT_LIMITS.url)]);
  }
  return pairs;
}
