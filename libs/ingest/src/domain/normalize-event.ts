import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { normalizeNonNilEventId } from '@faultline/kernel';
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
  rawFunction?: string;
  module?: string;
  package?: string;
  platform?: string;
  symbol?: string;
  lineno?: number;
  colno?: number;
  inApp?: boolean;
  contextLine?: string;
  preContext?: string[];
  postContext?: string[];
  /** The frame's local variables, as the SDK serialised them. */
  vars?: JsonObject;
  instructionAddr?: string;
  symbolAddr?: string;
  imageAddr?: string;
  addrMode?: string;
  trust?: string;
}

export interface NormalizedStacktrace {
  /** Oldest call first, the frame that threw last, as Sentry SDKs send them. */
  frames: NormalizedFrame[];
  /** `[start, end]` of frames the SDK left out. */
  framesOmitted?: [number, number];
  registers?: Record<string, string>;
}

export interface NormalizedMechanism {
  type?: string;
  handled?: boolean;
  synthetic?: boolean;
  description?: string;
  helpLink?: string;
  source?: string;
  exceptionId?: number;
  parentId?: number;
  isExceptionGroup?: boolean;
  data?: JsonObject;
  meta?: JsonObject;
}

export interface NormalizedException {
  type?: string;
  value?: string;
  module?: string;
  threadId?: string | number;
  mechanism?: NormalizedMechanism;
  stacktrace?: NormalizedStacktrace;
  /** The stack trace as the SDK sent it, when `stacktrace` was mapped through source maps. */
  rawStacktrace?: NormalizedStacktrace;
}

/** A problem met while processing the event (e.g. a missing source map), as Sentry lists them. */
export interface ProcessingErrorEntry {
  type: string;
  message: string;
  data: Record<string, string | number>;
}

export interface NormalizedThread {
  id?: string | number;
  name?: string;
  crashed?: boolean;
  current?: boolean;
  main?: boolean;
  state?: string;
  stacktrace?: NormalizedStacktrace;
}

export interface NormalizedBreadcrumb {
  /** As sent (seconds since the epoch, or RFC 3339), read when shown: most crumbs are never read. */
  timestamp?: number | string;
  type?: string;
  category?: string;
  level?: EventLevel;
  message?: string;
  data?: JsonObject;
  eventId?: string;
}

export interface NormalizedGeo {
  countryCode?: string;
  city?: string;
  subdivision?: string;
  region?: string;
}

export interface NormalizedUser {
  id?: string;
  email?: string;
  username?: string;
  ipAddress?: string;
  name?: string;
  geo?: NormalizedGeo;
  /** `user.data` and any other fields the SDK set on the user, as Relay keeps them. */
  data?: JsonObject;
}

export interface NormalizedRequest {
  url?: string;
  method?: string;
  headers?: StringPairs;
  query?: StringPairs;
  fragment?: string;
  cookies?: StringPairs;
  data?: JsonValue;
  env?: JsonObject;
  /** From the body when it parses as JSON or a form, else the Content-Type header, as Relay infers it. */
  inferredContentType?: string;
}

export interface NormalizedSdk {
  name?: string;
  version?: string;
  integrations?: string[];
  packages?: Array<{ name: string; version: string }>;
}

export interface NormalizedDebugMeta {
  images?: JsonObject[];
  sdkInfo?: JsonObject;
  isDebugBuild?: boolean;
}

/** Browser security reports (`csp`, `hpkp`, `expectct`, `expectstaple`, `nel`), kept as sent. */
export const SECURITY_REPORT_TYPES = ['csp', 'hpkp', 'expectct', 'expectstaple', 'nel'] as const;
export type SecurityReportType = (typeof SECURITY_REPORT_TYPES)[number];

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
  /** The params applied to the template (a list, or an object for named params). */
  messageParams?: JsonValue;
  /** Chained exceptions, oldest (the cause) first; the last one is the one that was thrown. */
  exceptions: NormalizedException[];
  /** An event-level stack trace (e.g. `captureMessage` with `attachStacktrace`). */
  stacktrace?: NormalizedStacktrace;
  threads?: NormalizedThread[];
  /** Oldest first, at most `EVENT_LIMITS.maxBreadcrumbs` (the newest). */
  breadcrumbs?: NormalizedBreadcrumb[];
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
  /** Installed packages and their versions. */
  modules?: Record<string, string>;
  /** A rendered template that failed (Django and the like), shaped like a stack frame. */
  template?: NormalizedFrame;
  debugMeta?: NormalizedDebugMeta;
  securityReports?: Partial<Record<SecurityReportType, JsonObject>>;
  /** Problems met while processing the event, shown as the event API's `errors`. */
  errors?: ProcessingErrorEntry[];
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
  /** Breadcrumb data, frame variables and mechanism data: many per event, so smaller bags. */
  smallData: Object.freeze({ depth: 5, string: 1024, array: 50, keys: 50 }),
  /** The newest are kept, as the SDKs' own default of 100 does. */
  maxBreadcrumbs: 100,
  maxThreads: 100,
  maxModules: 1000,
  maxDebugImages: 1000,
  maxIntegrations: 100,
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
  const { message, template, params } = normalizeMessage(raw);
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
  assign(event, 'messageParams', params);
  assign(event, 'stacktrace', normalizeStacktrace(field(raw, 'stacktrace', 'sentry.interfaces.Stacktrace')));
  assign(event, 'threads', normalizeThreads(raw.threads));
  assign(event, 'breadcrumbs', normalizeBreadcrumbs(field(raw, 'breadcrumbs', 'sentry.interfaces.Breadcrumbs')));
  assign(event, 'user', normalizeUser(field(raw, 'user', 'sentry.interfaces.User'), context.clientIp));
  assign(event, 'release', normalizeRelease(raw.release));
  assign(event, 'dist', str(raw.dist, EVENT_LIMITS.shortField));
  assign(event, 'serverName', str(raw.server_name, EVENT_LIMITS.field));
  assign(event, 'transaction', transaction);
  assign(event, 'contexts', normalizeContexts(raw.contexts));
  assign(event, 'request', request);
  assign(event, 'sdk', normalizeSdk(raw.sdk));
  assign(event, 'fingerprint', normalizeFingerprint(raw.fingerprint));
  assign(event, 'extra', isObject(raw.extra) ? boundObject(raw.extra) : undefined);
  assign(event, 'modules', normalizeModules(raw.modules));
  assign(
    event,
    'template',
    isObject(field(raw, 'template', 'sentry.interfaces.Template')) ? normalizeFrame(field(raw, 'template', 'sentry.interfaces.Template')) : undefined,
  );
  assign(event, 'debugMeta', normalizeDebugMeta(raw.debug_meta));
  assign(event, 'securityReports', normalizeSecurityReports(raw));

  event.culprit = truncate(str(raw.culprit) ?? transaction ?? culpritFromExceptions(exceptions) ?? request?.url ?? '', EVENT_LIMITS.culprit);
  event.title = titleOf(exceptions, message);
  return event;
}

// ---- identity, time, level -----------------------------------------------------------------

const normalizeEventId = normalizeNonNilEventId;

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

interface MessageParts {
  message?: string;
  template?: string;
  params?: JsonValue;
}

function normalizeMessage(raw: Record<string, unknown>): MessageParts {
  // `logentry` is the interface; `message` (string or object) its legacy alias.
  for (const candidate of [raw.logentry, raw['sentry.interfaces.Message'], raw.message]) {
    const found = messageFrom(candidate);
    if (found.message) return found;
  }
  return {};
}

function messageFrom(value: unknown): MessageParts {
  if (typeof value === 'string') return { message: nonEmpty(truncate(value, EVENT_LIMITS.message)) };
  if (!isObject(value)) return {};
  const template = typeof value.message === 'string' ? value.message : undefined;
  const hasParams = (Array.isArray(value.params) && value.params.length > 0) || isObject(value.params);
  const formatted = typeof value.formatted === 'string' && value.formatted.trim() !== '' ? value.formatted : undefined;
  const message = formatted ?? (template !== undefined && hasParams ? formatParams(template, value.params) : template);
  const parts: MessageParts = { message: message === undefined ? undefined : nonEmpty(truncate(message, EVENT_LIMITS.message)) };
  if (template !== undefined && hasParams && template !== message) {
    parts.template = truncate(template, EVENT_LIMITS.message);
    parts.params = boundJson(value.params, 0, EVENT_LIMITS.smallData);
  }
  return parts;
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
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? Array.isArray(value.values)
        ? value.values
        : 'type' in value || 'value' in value
          ? [value]
          : []
      : [];
  const exceptions: NormalizedException[] = [];
  for (const entry of list.slice(-EVENT_LIMITS.maxExceptions)) {
    if (!isObject(entry)) continue;
    const exception: NormalizedException = {};
    assign(exception, 'type', str(entry.type, EVENT_LIMITS.exceptionType));
    assign(exception, 'value', lenientString(entry.value, EVENT_LIMITS.exceptionValue));
    assign(exception, 'module', str(entry.module, EVENT_LIMITS.field));
    assign(exception, 'threadId', threadId(entry.thread_id));
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
  assign(mechanism, 'handled', bool(value.handled));
  assign(mechanism, 'synthetic', bool(value.synthetic));
  assign(mechanism, 'description', str(value.description, EVENT_LIMITS.message));
  assign(mechanism, 'helpLink', str(value.help_link, EVENT_LIMITS.url));
  assign(mechanism, 'source', str(value.source, EVENT_LIMITS.field));
  assign(mechanism, 'exceptionId', lineNumber(value.exception_id));
  assign(mechanism, 'parentId', lineNumber(value.parent_id));
  assign(mechanism, 'isExceptionGroup', bool(value.is_exception_group));
  assign(mechanism, 'data', smallObject(value.data));
  assign(mechanism, 'meta', smallObject(value.meta));
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
  if (normalized.length === 0) return undefined;
  const stacktrace: NormalizedStacktrace = { frames: normalized };
  const omitted = value.frames_omitted;
  if (Array.isArray(omitted) && omitted.length === 2 && omitted.every((index) => lineNumber(index) !== undefined)) {
    stacktrace.framesOmitted = [omitted[0] as number, omitted[1] as number];
  }
  if (isObject(value.registers)) {
    const registers = pairsFrom(value.registers, EVENT_LIMITS.shortField);
    if (registers.length > 0) stacktrace.registers = Object.fromEntries(registers);
  }
  return stacktrace;
}

function normalizeFrame(value: unknown): NormalizedFrame | undefined {
  if (!isObject(value)) return undefined;
  const frame: NormalizedFrame = {};
  assign(frame, 'filename', str(value.filename, EVENT_LIMITS.path));
  assign(frame, 'absPath', str(value.abs_path, EVENT_LIMITS.path));
  assign(frame, 'function', str(value.function, EVENT_LIMITS.symbol));
  assign(frame, 'rawFunction', str(value.raw_function, EVENT_LIMITS.symbol));
  assign(frame, 'module', str(value.module, EVENT_LIMITS.symbol));
  assign(frame, 'package', str(value.package, EVENT_LIMITS.path));
  assign(frame, 'platform', normalizePlatform(value.platform));
  assign(frame, 'symbol', str(value.symbol, EVENT_LIMITS.symbol));
  assign(frame, 'lineno', lineNumber(value.lineno));
  assign(frame, 'colno', lineNumber(value.colno));
  assign(frame, 'inApp', bool(value.in_app));
  assign(frame, 'contextLine', typeof value.context_line === 'string' ? truncate(value.context_line, EVENT_LIMITS.contextLine) : undefined);
  assign(frame, 'preContext', contextLines(value.pre_context, 'end'));
  assign(frame, 'postContext', contextLines(value.post_context, 'start'));
  assign(frame, 'vars', smallObject(value.vars));
  assign(frame, 'instructionAddr', str(value.instruction_addr, EVENT_LIMITS.shortField));
  assign(frame, 'symbolAddr', str(value.symbol_addr, EVENT_LIMITS.shortField));
  assign(frame, 'imageAddr', str(value.image_addr, EVENT_LIMITS.shortField));
  assign(frame, 'addrMode', str(value.addr_mode, EVENT_LIMITS.shortField));
  assign(frame, 'trust', str(value.trust, EVENT_LIMITS.shortField));
  return frame.filename || frame.absPath || frame.function || frame.module || frame.instructionAddr ? frame : undefined;
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

function threadId(value: unknown): string | number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  return str(value, EVENT_LIMITS.shortField);
}

function normalizeThreads(value: unknown): NormalizedThread[] | undefined {
  const list = isObject(value) && Array.isArray(value.values) ? value.values : Array.isArray(value) ? value : [];
  const threads: NormalizedThread[] = [];
  for (const entry of list.slice(0, EVENT_LIMITS.maxThreads)) {
    if (!isObject(entry)) continue;
    const thread: NormalizedThread = {};
    assign(thread, 'id', threadId(entry.id));
    assign(thread, 'name', str(entry.name, EVENT_LIMITS.field));
    assign(thread, 'crashed', bool(entry.crashed));
    assign(thread, 'current', bool(entry.current));
    assign(thread, 'main', bool(entry.main));
    assign(thread, 'state', str(entry.state, EVENT_LIMITS.shortField));
    assign(thread, 'stacktrace', normalizeStacktrace(entry.stacktrace));
    if (Object.keys(thread).length > 0) threads.push(thread);
  }
  return threads.length > 0 ? threads : undefined;
}

// ---- breadcrumbs -----------------------------------------------------------------------------

/**
 * Keeps the newest breadcrumbs, each field bounded; crumbs are otherwise kept as sent (oldest
 * first), with no per-crumb work beyond that.
 */
function normalizeBreadcrumbs(value: unknown): NormalizedBreadcrumb[] | undefined {
  const list = isObject(value) && Array.isArray(value.values) ? value.values : Array.isArray(value) ? value : [];
  const breadcrumbs: NormalizedBreadcrumb[] = [];
  for (const entry of list.slice(-EVENT_LIMITS.maxBreadcrumbs)) {
    if (!isObject(entry)) continue;
    const crumb: NormalizedBreadcrumb = {};
    assign(
      crumb,
      'timestamp',
      typeof entry.timestamp === 'number' && Number.isFinite(entry.timestamp) ? entry.timestamp : str(entry.timestamp, EVENT_LIMITS.shortField),
    );
    assign(crumb, 'type', str(entry.type, EVENT_LIMITS.shortField));
    assign(crumb, 'category', str(entry.category, EVENT_LIMITS.shortField * 2));
    if (entry.level !== undefined && entry.level !== null) crumb.level = normalizeLevel(entry.level);
    assign(crumb, 'message', lenientString(entry.message, EVENT_LIMITS.message));
    assign(crumb, 'data', smallObject(entry.data));
    assign(crumb, 'eventId', normalizeEventId(entry.event_id));
    if (Object.keys(crumb).length > 0) breadcrumbs.push(crumb);
  }
  return breadcrumbs.length > 0 ? breadcrumbs : undefined;
}

// ---- contexts, modules, debug meta, security reports ----------------------------------------

/** Each context is an object (Relay drops others); what is in it is kept, bounded. */
function normalizeContexts(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const contexts = Object.fromEntries(
    Object.entries(value)
      .filter(([, context]) => isObject(context))
      .slice(0, EVENT_LIMITS.dataKeys)
      .map(([key, context]) => [truncate(key, EVENT_LIMITS.field), boundJson(context, 1)]),
  );
  return Object.keys(contexts).length > 0 ? contexts : undefined;
}

function normalizeModules(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const modules: Array<[string, string]> = [];
  for (const [name, version] of Object.entries(value)) {
    if (modules.length >= EVENT_LIMITS.maxModules) break;
    const text = scalarText(version);
    if (name && text !== undefined) modules.push([truncate(name, EVENT_LIMITS.field), truncate(text, EVENT_LIMITS.shortField)]);
  }
  return modules.length > 0 ? Object.fromEntries(modules) : undefined;
}

function normalizeDebugMeta(value: unknown): NormalizedDebugMeta | undefined {
  if (!isObject(value)) return undefined;
  const debugMeta: NormalizedDebugMeta = {};
  if (Array.isArray(value.images)) {
    const images = value.images
      .slice(0, EVENT_LIMITS.maxDebugImages)
      .filter(isObject)
      .map((image) => boundJson(image, 0, EVENT_LIMITS.smallData) as JsonObject);
    if (images.length > 0) debugMeta.images = images;
  }
  assign(debugMeta, 'sdkInfo', smallObject(value.sdk_info));
  assign(debugMeta, 'isDebugBuild', bool(value.is_debug_build));
  return Object.keys(debugMeta).length > 0 ? debugMeta : undefined;
}

function normalizeSecurityReports(raw: Record<string, unknown>): NormalizedEvent['securityReports'] {
  let reports: NormalizedEvent['securityReports'];
  for (const type of SECURITY_REPORT_TYPES) {
    if (isObject(raw[type])) (reports ??= {})[type] = boundObject(raw[type]);
  }
  return reports;
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

const USER_FIELDS = new Set(['id', 'email', 'username', 'name', 'ip_address', 'geo', 'data', 'segment', 'sentry_user']);

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
    assign(geo, 'subdivision', str(value.geo.subdivision, EVENT_LIMITS.field));
    assign(geo, 'region', str(value.geo.region, EVENT_LIMITS.field));
    if (Object.keys(geo).length > 0) user.geo = geo;
  }
  // Fields other than the known ones go into `data`, as Relay moves them.
  const others = Object.entries(value).filter(([key]) => !USER_FIELDS.has(key));
  const data = Object.fromEntries([...(isObject(value.data) ? Object.entries(value.data) : []), ...others]);
  assign(user, 'data', Object.keys(data).length > 0 ? smallObject(data) : undefined);
  return Object.keys(user).length > 0 ? user : undefined;
}

function normalizeRequest(value: unknown): NormalizedRequest | undefined {
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

/** An object (`{k: v}`, arrays joined) or a list of pairs, as SDKs send headers. */
function pairsFrom(value: unknown, maxValue: number): StringPairs {
  const entries: unknown[][] = Array.isArray(value) ? value.filter(Array.isArray) : isObject(value) ? Object.entries(value) : [];
  const pairs: StringPairs = [];
  for (const [key, raw] of entries) {
    if (pairs.length >= EVENT_LIMITS.maxPairs) break;
    if (typeof key !== 'string' || key.trim() === '') continue;
    const text = Array.isArray(raw)
      ? raw
          .map(scalarText)
          .filter((part) => part !== undefined)
          .join(', ')
      : scalarText(raw);
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
  if (Array.isArray(value.integrations)) {
    const integrations = value.integrations
      .filter((name): name is string => typeof name === 'string' && name !== '')
      .slice(0, EVENT_LIMITS.maxIntegrations)
      .map((name) => truncate(name, EVENT_LIMITS.shortField));
    if (integrations.length > 0) sdk.integrations = integrations;
  }
  if (Array.isArray(value.packages)) {
    const packages = value.packages
      .filter((entry): entry is Record<string, unknown> => isObject(entry) && typeof entry.name === 'string' && typeof entry.version === 'string')
      .slice(0, EVENT_LIMITS.maxIntegrations)
      .map((entry) => ({ name: truncate(entry.name as string, EVENT_LIMITS.field), version: truncate(entry.version as string, EVENT_LIMITS.shortField) }));
    if (packages.length > 0) sdk.packages = packages;
  }
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
export function culpritFromExceptions(exceptions: NormalizedException[]): string | undefined {
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

/** How deep, long and wide a bag of SDK data may be. */
export interface JsonBounds {
  readonly depth: number;
  readonly string: number;
  readonly array: number;
  readonly keys: number;
}

const DATA_BOUNDS: JsonBounds = { depth: EVENT_LIMITS.dataDepth, string: EVENT_LIMITS.dataString, array: EVENT_LIMITS.dataArray, keys: EVENT_LIMITS.dataKeys };

function boundObject(value: Record<string, unknown>): JsonObject {
  return boundJson(value, 0) as JsonObject;
}

/** An object bounded by the small bags' limits; anything else is dropped. */
function smallObject(value: unknown): JsonObject | undefined {
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

function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
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
