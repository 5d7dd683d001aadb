import type { JsonObject, JsonValue, NormalizedEvent, NormalizedFrame, NormalizedStacktrace, StringPairs } from '../normalize-event';
import { parseStorableJson } from '../storable-text';
import { type DataScrubber, type Path, ScrubPass } from './data-scrubber';

/** Relay leaves the user agent alone (`DATASCRUBBER_IGNORE`): grouping and the browser context need it. */
const UNSCRUBBED_HEADERS = new Set(['user-agent']);

/**
 * Scrubs a normalised event where Relay's legacy data scrubbing looks (the fields Relay's schema
 * marks as personal data): extra, contexts, the request (URL, query, body, headers, cookies,
 * environment), breadcrumbs' messages and data, the user, tags, frame variables, the message
 * and exception values (these two only with replacements that keep them readable, as Relay does for
 * the formatted message). Other fields (ids, platform, release, paths, function names) are never
 * personal data and stay. Changes the event in place and adds Sentry's `_meta` for what changed;
 * the caller names the event again afterwards, so its title shows the scrubbed text.
 */
export function scrubEvent(event: NormalizedEvent, scrubber: DataScrubber): NormalizedEvent {
  if (!scrubber.enabled) return event;
  const pass = new ScrubPass(scrubber, event._meta ?? {});
  const object = (value: JsonObject | undefined, path: Path): JsonObject | undefined =>
    value === undefined ? undefined : (pass.value(value, undefined, path) as JsonObject);
  const pairs = (value: StringPairs | undefined, path: Path, skip?: (key: string) => boolean) => value && pass.pairs(value, path, 'data', skip);

  event.extra = object(event.extra, ['extra']);
  event.contexts = object(event.contexts, ['contexts']);
  event.tags = pass.pairs(event.tags, ['tags']);
  if (event.message !== undefined) event.message = pass.value(event.message, undefined, ['message'], 'readable') as string;
  if (event.messageTemplate !== undefined) event.messageTemplate = textOrFiltered(pass.value(event.messageTemplate, undefined, ['messageTemplate']));
  if (event.messageParams !== undefined) event.messageParams = pass.value(event.messageParams, undefined, ['messageParams']);

  const request = event.request;
  if (request) {
    if (request.url !== undefined) request.url = textOrFiltered(pass.value(request.url, 'url', ['request', 'url']));
    if (request.fragment !== undefined) request.fragment = textOrFiltered(pass.value(request.fragment, 'fragment', ['request', 'fragment']));
    request.query = pairs(request.query, ['request', 'query']);
    request.headers = pairs(request.headers, ['request', 'headers'], (key) => UNSCRUBBED_HEADERS.has(key));
    if (request.cookies) request.cookies = pass.pairs(request.cookies, ['request', 'cookies'], 'cookie');
    if (request.data !== undefined) request.data = pass.value(request.data, 'data', ['request', 'data']);
    if (request.env) {
      // The CGI environment of the request (not the service's): its client address.
      const { REMOTE_ADDR: clientAddress, ...cgiEnvironment } = request.env;
      if (scrubber.scrubIps && clientAddress !== undefined) {
        pass.remove(['request', 'env', 'REMOTE_ADDR']);
        request.env = cgiEnvironment;
      }
      request.env = object(request.env, ['request', 'env']);
    }
  }

  const user = event.user;
  if (user) {
    if (scrubber.scrubIps && user.ipAddress !== undefined) {
      delete user.ipAddress;
      pass.remove(['user', 'ipAddress']);
    }
    for (const field of ['id', 'email', 'username', 'name', 'ipAddress'] as const) {
      const value = user[field];
      if (value === undefined) continue;
      const scrubbed = pass.value(value, field, ['user', field]);
      if (typeof scrubbed === 'string') user[field] = scrubbed;
      else delete user[field];
    }
    if (user.data) user.data = object(user.data, ['user', 'data']);
  }

  event.breadcrumbs?.forEach((crumb, index) => {
    if (crumb.message !== undefined) crumb.message = textOrFiltered(pass.value(crumb.message, 'message', ['breadcrumbs', index, 'message']));
    if (crumb.data) crumb.data = object(crumb.data, ['breadcrumbs', index, 'data']);
  });

  const frames = (stacktrace: NormalizedStacktrace | undefined, path: Path) =>
    stacktrace?.frames.forEach((frame: NormalizedFrame, index) => {
      if (frame.vars) frame.vars = object(frame.vars, [...path, 'frames', index, 'vars']);
    });
  event.exceptions.forEach((exception, index) => {
    if (exception.value !== undefined) exception.value = pass.value(exception.value, undefined, ['exceptions', index, 'value'], 'readable') as string;
    frames(exception.stacktrace, ['exceptions', index, 'stacktrace']);
    frames(exception.rawStacktrace, ['exceptions', index, 'rawStacktrace']);
  });
  frames(event.stacktrace, ['stacktrace']);
  event.threads?.forEach((thread, index) => frames(thread.stacktrace, ['threads', index, 'stacktrace']));

  if (Object.keys(pass.meta).length > 0) event._meta = pass.meta;
  return event;
}

/** A text field holds text: one whose value is removed (a card number kept as a number cannot be one) reads `[Filtered]`. */
function textOrFiltered(value: JsonValue): string {
  return typeof value === 'string' ? value : '[Filtered]';
}

/** Keys whose values are addresses in a payload as the SDK sent it. */
const RAW_IP_KEYS = new Set(['ip_address', 'REMOTE_ADDR', 'client_ip']);

/**
 * A payload as the SDK sent it, scrubbed with the same rules for a dead letter: every value is
 * looked at as free-form data (the payload's shape is unknown; it failed processing), and a
 * payload that is not JSON is scrubbed as one text.
 */
export function scrubPayload(payload: string, scrubber: DataScrubber): string {
  if (!scrubber.enabled) return payload;
  const pass = new ScrubPass(scrubber);
  let parsed: JsonValue;
  try {
    parsed = parseStorableJson(payload) as JsonValue;
  } catch {
    return textOrFiltered(pass.value(payload, undefined, []));
  }
  const withoutIps = scrubber.scrubIps ? dropKeys(parsed, RAW_IP_KEYS) : parsed;
  return JSON.stringify(pass.value(withoutIps, undefined, []));
}

function dropKeys(value: JsonValue, keys: ReadonlySet<string>): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => dropKeys(item, keys));
  return Object.fromEntries(Object.entries(value).flatMap(([key, child]) => (keys.has(key) ? [] : [[key, dropKeys(child, keys)]])));
}
