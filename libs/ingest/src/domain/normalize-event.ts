import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { EnvelopeError } from './envelope-error';
import { storableText } from './storable-text';

/**
 * Turns an SDK event payload (store endpoint body or envelope `event` item), as `parseStorableJson`
 * reads it, into one strict shape.
 * SDKs of every age and language send it, so wrong-typed fields are ignored rather than refused,
 * and every string and collection is bounded so one event cannot bloat storage.
 */

export type EventLevel = 'fatal' | 'error' | 'warning' | 'info' | 'debug';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A key/value list in the order sent, as Sentry's API shows tags, headers and query strings. */
export type StringPairs = Array<[string, string]>;

export interface NormalizedFrame {
  filename?: string;
  absPath?: string;
  function?: string;
  module?: string;
  lineno?: number;
  colno?: number;
  inApp?: boolean;
  contextLine?: string;
  preContext?: string[];
  postContext?: string[];
}

export interface NormalizedStacktrace {
  /** Oldest call first, the frame that threw last, as Sentry SDKs send them. */
  frames: NormalizedFrame[];
}

export interface NormalizedMechanism {
  type?: string;
  handled?: boolean;
}

export interface NormalizedException {
  type?: string;
  value?: string;
  module?: string;
  mechanism?: NormalizedMechanism;
  stacktrace?: NormalizedStacktrace;
}

export interface NormalizedGeo {
  countryCode?: string;
  city?: string;
  region?: string;
}

export interface NormalizedUser {
  id?: string;
  email?: string;
  username?: string;
  ipAddress?: string;
  name?: string;
  geo?: NormalizedGeo;
}

export interface NormalizedRequest {
  url?: string;
  method?: string;
  headers?: StringPairs;
  query?: StringPairs;
  data?: JsonValue;
}

export interface NormalizedSdk {
  name?: string;
  version?: string;
}

export interface NormalizedEvent {
  /** 32 lowercase hex. */
  eventId: string;
  /** ISO 8601 with milliseconds and `Z`. */
  timestamp: string;
  /** When Faultline received it (ISO), for clock-drift diagnosis. */
  receivedAt: string;
  level: EventLevel;
  platform: string;
  logger?: string;
  /** The formatted message. */
  message?: string;
  /** The message before its params were applied, when it had params: the better grouping key. */
  messageTemplate?: string;
  /** Chained exceptions, oldest (the cause) first; the last one is the one that was thrown. */
  exceptions: NormalizedException[];
  tags: StringPairs;
  user?: NormalizedUser;
  release?: string;
  environment: string;
  dist?: string;
  serverName?: string;
  transaction?: string;
  contexts?: JsonObject;
  request?: NormalizedRequest;
  sdk?: NormalizedSdk;
  fingerprint?: string[];
  extra?: JsonObject;
  culprit: string;
  title: string;
}

export interface NormalizeContext {
  receivedAt: Date;
  /** The client's address, which replaces a user `ip_address` of `{{auto}}`. */
  clientIp?: string;
  /** Platform when the event names none (e.g. the project's platform). */
  platformFallback?: string;
  /** The envelope header's event_id, used when the payload carries none (as Relay does). */
  eventId?: string;
}

export const EVENT_LIMITS = Object.freeze({
  message: 8192,
  title: 200,
  culprit: 200,
  tagKey: 200,
  tagValue: 200,
  maxTags: 200,
  exceptionType: 256,
  exceptionValue: 8192,
  maxExceptions: 25,
  maxFrames: 250,
  /** When frames are dropped, this many of the oldest are kept; the rest are the newest. */
  keptOldestFrames: 50,
  path: 1024,
  symbol: 256,
  contextLine: 1024,
  contextLines: 10,
  shortField: 64,
  field: 256,
  release: 200,
  url: 2048,
  headerValue: 4096,
  maxPairs: 100,
  fingerprintEntries: 50,
  fingerprintEntry: 200,
  dataString: 4096,
  dataDepth: 8,
  dataArray: 100,
  dataKeys: 200,
  /** Sentry moves timestamps more than a minute ahead of arrival to the arrival time. */
  maxFutureMs: 60_000,
  /** ...and those older than 30 days too. */
  maxPastMs: 30 * 24 * 60 * 60 * 1000,
});

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

export function normalizeEvent(raw: unknown, context: NormalizeContext): NormalizedEvent {
  if (!isObject(raw)) throw new EnvelopeError('event payload must be a JSON object');
  const receivedAt = context.receivedAt;

  const exceptions = normalizeExceptions(field(raw, 'exception', 'sentry.interfaces.Exception'));
  const { message, template } = normalizeMessage(raw);
  const transaction = str(raw.transaction, EVENT_LIMITS.culprit);
  const request = normalizeRequest(field(raw, 'request', 'sentry.interfaces.Http'));

  const event: NormalizedEvent = {
    eventId: normalizeEventId(raw.event_id) ?? normalizeEventId(context.eventId) ?? randomUUID().replace(/-/g, ''),
    timestamp: normalizeTimestamp(raw.timestamp, receivedAt),
    receivedAt: receivedAt.toISOString(),
    level: normalizeLevel(raw.level),
    platform: normalizePlatform(raw.platform) ?? normalizePlatform(context.platformFallback) ?? 'other',
    exceptions,
    tags: normalizeTags(raw.tags),
    environment: normalizeEnvironment(raw.environment) ?? 'production',
    culprit: '',
    title: '',
  };

  assign(event, 'logger', str(raw.logger, EVENT_LIMITS.shortField));
  assign(event, 'message', message);
  assign(event, 'messageTemplate', template);
  assign(event, 'user', normalizeUser(field(raw, 'user', 'sentry.interfaces.User'), context.clientIp));
  assign(event, 'release', normalizeRelease(raw.release));
  assign(event, 'dist', str(raw.dist, EVENT_LIMITS.shortField));
  assign(event, 'serverName', str(raw.server_name, EVENT_LIMITS.field));
  assign(event, 'transaction', transaction);
  assign(event, 'contexts', isObject(raw.contexts) ? boundObject(raw.contexts) : undefined);
  assign(event, 'request', request);
  assign(event, 'sdk', normalizeSdk(raw.sdk));
  assign(event, 'fingerprint', normalizeFingerprint(raw.fingerprint));
  assign(event, 'extra', isObject(raw.extra) ? boundObject(raw.extra) : undefined);

  event.culprit = truncate(str(raw.culprit) ?? transaction ?? culpritFromExceptions(exceptions) ?? request?.url ?? '', EVENT_LIMITS.culprit);
  event.title = titleOf(exceptions, message);
  return event;
}

// ---- identity, time, level -----------------------------------------------------------------

function normalizeEventId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const compact = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(trimmed) ? trimmed.replace(/-/g, '') : trimmed;
  if (!/^[0-9a-fA-F]{32}$/.test(compact) || /^0+$/.test(compact)) return undefined;
  return compact.toLowerCase();
}

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

function normalizeTimestamp(value: unknown, receivedAt: Date): string {
  const parsed = parseTimestamp(value);
  const received = receivedAt.getTime();
  if (!parsed) return receivedAt.toISOString();
  const time = parsed.getTime();
  // A skewed client clock must not put events into the future or before retention.
  if (time > received + EVENT_LIMITS.maxFutureMs || time < received - EVENT_LIMITS.maxPastMs) return receivedAt.toISOString();
  return parsed.toISOString();
}

function normalizeLevel(value: unknown): EventLevel {
  if (typeof value === 'string') return LEVELS[value.trim().toLowerCase()] ?? 'error';
  if (typeof value === 'number') return NUMERIC_LEVELS[value] ?? 'error';
  return 'error';
}

function normalizePlatform(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const platform = value.trim().toLowerCase();
  return /^[a-z][a-z0-9._-]{0,63}$/.test(platform) ? platform : undefined;
}

// Relay's rules: names that break URLs or the UI are dropped, not repaired.
function normalizeRelease(value: unknown): string | undefined {
  const release = typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
  if (!release || release.length > EVENT_LIMITS.release) return undefined;
  if (release === '.' || release === '..' || release.toLowerCase() === 'latest') return undefined;
  return /[\r\n\t\f\v/\\]/.test(release) ? undefined : release;
}

function normalizeEnvironment(value: unknown): string | undefined {
  const environment = str(value);
  if (!environment || environment.length > EVENT_LIMITS.shortField || environment === 'None') return undefined;
  return /[\r\n\t\f\v/]/.test(environment) ? undefined : environment;
}

// ---- message ---------------------------------------------------------------------------------

function normalizeMessage(raw: Record<string, unknown>): { message?: string; template?: string } {
  // `logentry` is the interface; `message` (string or object) its legacy alias.
  for (const candidate of [raw.logentry, raw['sentry.interfaces.Message'], raw.message]) {
    const found = messageFrom(candidate);
    if (found.message) return found;
  }
  return {};
}

function messageFrom(value: unknown): { message?: string; template?: string } {
  if (typeof value === 'string') return { message: nonEmpty(truncate(value, EVENT_LIMITS.message)) };
  if (!isObject(value)) return {};
  const template = typeof value.message === 'string' ? value.message : undefined;
  const hasParams = (Array.isArray(value.params) && value.params.length > 0) || isObject(value.params);
  const formatted = typeof value.formatted === 'string' && value.formatted.trim() !== '' ? value.formatted : undefined;
  const message = formatted ?? (template !== undefined && hasParams ? formatParams(template, value.params) : template);
  return {
    message: message === undefined ? undefined : nonEmpty(truncate(message, EVENT_LIMITS.message)),
    template: template !== undefined && hasParams && template !== message ? truncate(template, EVENT_LIMITS.message) : undefined,
  };
}

/** Applies params the way Python's `%` does for the common cases: `%s`/`%d`/`%i`/`%f`, `%(name)s`. */
export function formatParams(template: string, params: unknown): string {
  if (Array.isArray(params)) {
    let index = 0;
    return template.replace(/%[sdif%]/g, (token) => {
      if (token === '%%') return '%';
      if (index >= params.length) return token;
      return paramText(params[index++]);
    });
  }
  if (isObject(params)) {
    return template.replace(/%\(([^)]+)\)[sdif]/g, (token, name: string) => (Object.hasOwn(params, name) ? paramText(params[name]) : token));
  }
  return template;
}

function paramText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return safeStringify(value, EVENT_LIMITS.dataString);
  return String(value);
}

// ---- exceptions ------------------------------------------------------------------------------

function normalizeExceptions(value: unknown): NormalizedException[] {
  // Sentry accepts `{values: [...]}`, a bare list, or a single exception object.
  const list = Array.isArray(value) ? value : isObject(value) ? (Array.isArray(value.values) ? value.values : 'type' in value || 'value' in value ? [value] : []) : [];
  const exceptions: NormalizedException[] = [];
  for (const entry of list.slice(-EVENT_LIMITS.maxExceptions)) {
    if (!isObject(entry)) continue;
    const exception: NormalizedException = {};
    assign(exception, 'type', str(entry.type, EVENT_LIMITS.exceptionType));
    assign(exception, 'value', lenientString(entry.value, EVENT_LIMITS.exceptionValue));
    assign(exception, 'module', str(entry.module, EVENT_LIMITS.field));
    assign(exception, 'mechanism', normalizeMechanism(entry.mechanism));
    assign(exception, 'stacktrace', normalizeStacktrace(entry.stacktrace));
    if (exception.type || exception.value || exception.stacktrace) exceptions.push(exception);
  }
  return exceptions;
}

function normalizeMechanism(value: unknown): NormalizedMechanism | undefined {
  if (!isObject(value)) return undefined;
  const mechanism: NormalizedMechanism = {};
  assign(mechanism, 'type', str(value.type, EVENT_LIMITS.shortField * 2));
  if (typeof value.handled === 'boolean') mechanism.handled = value.handled;
  return Object.keys(mechanism).length > 0 ? mechanism : undefined;
}

function normalizeStacktrace(value: unknown): NormalizedStacktrace | undefined {
  if (!isObject(value) || !Array.isArray(value.frames)) return undefined;
  let frames = value.frames;
  if (frames.length > EVENT_LIMITS.maxFrames) {
    // The newest frames say where it broke, the oldest how it got there; the middle is repetition.
    frames = [...frames.slice(0, EVENT_LIMITS.keptOldestFrames), ...frames.slice(frames.length - (EVENT_LIMITS.maxFrames - EVENT_LIMITS.keptOldestFrames))];
  }
  const normalized = frames.map(normalizeFrame).filter((frame): frame is NormalizedFrame => frame !== undefined);
  return normalized.length > 0 ? { frames: normalized } : undefined;
}

function normalizeFrame(value: unknown): NormalizedFrame | undefined {
  if (!isObject(value)) return undefined;
  const frame: NormalizedFrame = {};
  assign(frame, 'filename', str(value.filename, EVENT_LIMITS.path));
  assign(frame, 'absPath', str(value.abs_path, EVENT_LIMITS.path));
  assign(frame, 'function', str(value.function, EVENT_LIMITS.symbol));
  assign(frame, 'module', str(value.module, EVENT_LIMITS.symbol));
  assign(frame, 'lineno', lineNumber(value.lineno));
  assign(frame, 'colno', lineNumber(value.colno));
  if (typeof value.in_app === 'boolean') frame.inApp = value.in_app;
  assign(frame, 'contextLine', typeof value.context_line === 'string' ? truncate(value.context_line, EVENT_LIMITS.contextLine) : undefined);
  assign(frame, 'preContext', contextLines(value.pre_context, 'end'));
  assign(frame, 'postContext', contextLines(value.post_context, 'start'));
  return frame.filename || frame.absPath || frame.function || frame.module ? frame : undefined;
}

function lineNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Keeps the lines nearest the failing line: the end of pre-context, the start of post-context. */
function contextLines(value: unknown, keep: 'start' | 'end'): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const lines = value.map((line) => (typeof line === 'string' ? truncate(line, EVENT_LIMITS.contextLine) : ''));
  const kept = keep === 'end' ? lines.slice(-EVENT_LIMITS.contextLines) : lines.slice(0, EVENT_LIMITS.contextLines);
  return kept.length > 0 ? kept : undefined;
}

// ---- tags, user, request, sdk, fingerprint ---------------------------------------------------

function normalizeTags(value: unknown): StringPairs {
  const entries: unknown[][] = Array.isArray(value) ? value.filter(Array.isArray) : isObject(value) ? Object.entries(value) : [];
  const tags: StringPairs = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (tags.length >= EVENT_LIMITS.maxTags) break;
    const [rawKey, rawValue] = entry;
    if (typeof rawKey !== 'string') continue;
    const key = truncate(rawKey.trim(), EVENT_LIMITS.tagKey);
    const text = scalarText(rawValue);
    if (!key || text === undefined || seen.has(key)) continue;
    const tagValue = truncate(text.trim(), EVENT_LIMITS.tagValue);
    if (!tagValue) continue;
    seen.add(key);
    tags.push([key, tagValue]);
  }
  return tags;
}

function normalizeUser(value: unknown, clientIp: string | undefined): NormalizedUser | undefined {
  if (!isObject(value)) return undefined;
  const user: NormalizedUser = {};
  const id = scalarText(value.id);
  assign(user, 'id', id === undefined ? undefined : nonEmpty(truncate(id.trim(), EVENT_LIMITS.field)));
  assign(user, 'email', str(value.email, EVENT_LIMITS.field));
  assign(user, 'username', str(value.username, EVENT_LIMITS.field));
  assign(user, 'name', str(value.name, EVENT_LIMITS.field));
  const ip = str(value.ip_address);
  // `{{auto}}` asks the server to fill in the address the request came from.
  const address = ip === '{{auto}}' ? clientIp?.trim() : ip;
  if (address && isIP(address)) user.ipAddress = address;
  if (isObject(value.geo)) {
    const geo: NormalizedGeo = {};
    assign(geo, 'countryCode', str(value.geo.country_code, EVENT_LIMITS.shortField));
    assign(geo, 'city', str(value.geo.city, EVENT_LIMITS.field));
    assign(geo, 'region', str(value.geo.region, EVENT_LIMITS.field));
    if (Object.keys(geo).length > 0) user.geo = geo;
  }
  return Object.keys(user).length > 0 ? user : undefined;
}

function normalizeRequest(value: unknown): NormalizedRequest | undefined {
  if (!isObject(value)) return undefined;
  const request: NormalizedRequest = {};
  assign(request, 'url', str(value.url, EVENT_LIMITS.url));
  const method = str(value.method)?.toUpperCase();
  if (method && /^[A-Z_-]{1,32}$/.test(method)) request.method = method;
  assign(request, 'headers', nonEmptyPairs(pairsFrom(value.headers, EVENT_LIMITS.headerValue)));
  // Sentry's field is `query_string`; `query` is accepted as well.
  assign(request, 'query', nonEmptyPairs(queryPairs(value.query_string ?? value.query)));
  if (value.data !== undefined && value.data !== null) request.data = boundJson(value.data, 0);
  return Object.keys(request).length > 0 ? request : undefined;
}

/** An object (`{k: v}`, arrays joined) or a list of pairs, as SDKs send headers. */
function pairsFrom(value: unknown, maxValue: number): StringPairs {
  const entries: unknown[][] = Array.isArray(value) ? value.filter(Array.isArray) : isObject(value) ? Object.entries(value) : [];
  const pairs: StringPairs = [];
  for (const [key, raw] of entries) {
    if (pairs.length >= EVENT_LIMITS.maxPairs) break;
    if (typeof key !== 'string' || key.trim() === '') continue;
    const text = Array.isArray(raw) ? raw.map(scalarText).filter((part) => part !== undefined).join(', ') : scalarText(raw);
    if (text === undefined) continue;
    pairs.push([truncate(key.trim(), EVENT_LIMITS.field), truncate(text, maxValue)]);
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

function nonEmptyPairs(pairs: StringPairs): StringPairs | undefined {
  return pairs.length > 0 ? pairs : undefined;
}

function normalizeSdk(value: unknown): NormalizedSdk | undefined {
  if (!isObject(value)) return undefined;
  const sdk: NormalizedSdk = {};
  assign(sdk, 'name', str(value.name, EVENT_LIMITS.field));
  assign(sdk, 'version', str(value.version, EVENT_LIMITS.shortField));
  return Object.keys(sdk).length > 0 ? sdk : undefined;
}

function normalizeFingerprint(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const entries = value
    .map(scalarText)
    .filter((entry): entry is string => entry !== undefined && entry !== '')
    .slice(0, EVENT_LIMITS.fingerprintEntries)
    .map((entry) => truncate(entry, EVENT_LIMITS.fingerprintEntry));
  return entries.length > 0 ? entries : undefined;
}

// ---- culprit and title -----------------------------------------------------------------------

/** Sentry's rule: the newest in-app frame of the last stack trace, else its newest frame. */
function culpritFromExceptions(exceptions: NormalizedException[]): string | undefined {
  const frames = exceptions.findLast((exception) => exception.stacktrace)?.stacktrace?.frames;
  if (!frames) return undefined;
  let fallback: string | undefined;
  for (let index = frames.length - 1; index >= 0; index--) {
    const culprit = frameCulprit(frames[index]);
    if (!culprit) continue;
    if (frames[index].inApp) return culprit;
    fallback ??= culprit;
  }
  return fallback;
}

function frameCulprit(frame: NormalizedFrame): string | undefined {
  const location = frame.module || frame.filename;
  if (!location) return undefined;
  return `${truncate(location, 100)} in ${truncate(frame.function || '?', 100)}`;
}

function titleOf(exceptions: NormalizedException[], message: string | undefined): string {
  const main = exceptions.at(-1);
  if (main && (main.type || main.value)) {
    const type = main.type || 'Error';
    const value = firstLine(main.value ?? '');
    return truncate(value ? `${type}: ${value}` : type, EVENT_LIMITS.title);
  }
  const line = firstLine(message ?? '');
  return line ? truncate(line, EVENT_LIMITS.title) : '<unlabeled event>';
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

// ---- bounded JSON --------------------------------------------------------------------------

function boundObject(value: Record<string, unknown>): JsonObject {
  return boundJson(value, 0) as JsonObject;
}

/**
 * A JSON-safe copy with bounded depth, string length and collection sizes. Built with
 * Object.fromEntries so a `__proto__` key stays an ordinary key.
 */
export function boundJson(value: unknown, depth: number): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return truncate(value, EVENT_LIMITS.dataString);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    if (depth >= EVENT_LIMITS.dataDepth) return '[Array]';
    return value.slice(0, EVENT_LIMITS.dataArray).map((entry) => boundJson(entry, depth + 1));
  }
  if (isObject(value)) {
    if (depth >= EVENT_LIMITS.dataDepth) return '[Object]';
    return Object.fromEntries(
      Object.entries(value)
        .slice(0, EVENT_LIMITS.dataKeys)
        .filter(([, entry]) => entry !== undefined && typeof entry !== 'function' && typeof entry !== 'symbol')
        .map(([key, entry]) => [truncate(key, EVENT_LIMITS.field), boundJson(entry, depth + 1)]),
    );
  }
  return null;
}

// ---- helpers -------------------------------------------------------------------------------

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a field or its legacy `sentry.interfaces.*` alias. */
function field(raw: Record<string, unknown>, name: string, alias: string): unknown {
  return raw[name] ?? raw[alias];
}

/** A trimmed, non-empty string, truncated; anything else is ignored. */
function str(value: unknown, max: number = EVENT_LIMITS.message): string | undefined {
  if (typeof value !== 'string') return undefined;
  return nonEmpty(truncate(value.trim(), max));
}

/** Relay's lenient string: scalars stringified, objects serialised. */
function lenientString(value: unknown, max: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return nonEmpty(truncate(value, max));
  if (typeof value === 'object') return nonEmpty(safeStringify(value, max));
  return scalarText(value);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function safeStringify(value: unknown, max: number): string {
  try {
    return truncate(JSON.stringify(boundJson(value, 0)) ?? '', max);
  } catch {
    return '';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Cuts to `max` UTF-16 units without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Sets an optional property only when it has a value, so stored JSON has no undefined keys. */
function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
