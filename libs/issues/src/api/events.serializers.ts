import type { ErrorEventRow } from '../application/queries/issue-read-model';
import { eventTags } from '../domain';

/**
 * Stored events are the ingest context's normalised events (camelCase, tags as [key, value]
 * pairs, chained exceptions oldest first). Anything may be missing or malformed in old rows, so
 * every read here is defensive.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const integer = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const iso = (value: Date | string): string => new Date(value).toISOString();

/** `[[key, value], ...]`, `{key: value}` or `[{key, value}]` as pairs of strings. */
function pairs(value: unknown): Array<[string, string]> {
  const entries: unknown[] = Array.isArray(value) ? value : isObject(value) ? Object.entries(value) : [];
  const found: Array<[string, string]> = [];
  for (const entry of entries) {
    const [key, val] = Array.isArray(entry) ? entry : isObject(entry) ? [entry.key, entry.value] : [];
    if (typeof key === 'string' && (typeof val === 'string' || typeof val === 'number' || typeof val === 'boolean')) {
      found.push([key, String(val)]);
    }
  }
  return found;
}

/** The chained exceptions, oldest first, wherever the event keeps them. */
function exceptionsOf(data: Json): Json[] {
  const raw = data.exceptions ?? (isObject(data.exception) ? data.exception.values : data.exception);
  return Array.isArray(raw) ? raw.filter(isObject) : [];
}

function frameOf(frame: Json) {
  const lineNo = integer(frame.lineno ?? frame.lineNo);
  const pre = Array.isArray(frame.preContext) ? frame.preContext.filter((line): line is string => typeof line === 'string') : [];
  const post = Array.isArray(frame.postContext) ? frame.postContext.filter((line): line is string => typeof line === 'string') : [];
  const contextLine = text(frame.contextLine);
  const context: Array<[number, string]> = [];
  if (lineNo !== undefined && contextLine !== undefined) {
    pre.forEach((line, index) => context.push([lineNo - pre.length + index, line]));
    context.push([lineNo, contextLine]);
    post.forEach((line, index) => context.push([lineNo + 1 + index, line]));
  }
  return {
    filename: text(frame.filename) ?? null,
    absPath: text(frame.absPath ?? frame.abs_path) ?? null,
    module: text(frame.module) ?? null,
    package: null,
    platform: null,
    instructionAddr: null,
    symbolAddr: null,
    function: text(frame.function) ?? null,
    rawFunction: null,
    symbol: null,
    context,
    lineNo: lineNo ?? null,
    colNo: integer(frame.colno ?? frame.colNo) ?? null,
    inApp: typeof (frame.inApp ?? frame.in_app) === 'boolean' ? (frame.inApp ?? frame.in_app) : false,
    trust: null,
    errors: null,
    lock: null,
    sourceLink: null,
    vars: null,
  };
}

function exceptionEntry(exceptions: Json[]) {
  let hasSystemFrames = false;
  const values = exceptions.map((exception) => {
    const rawFrames = isObject(exception.stacktrace) && Array.isArray(exception.stacktrace.frames) ? exception.stacktrace.frames.filter(isObject) : [];
    const frames = rawFrames.map(frameOf);
    const systemFrames = frames.some((frame) => !frame.inApp);
    hasSystemFrames ||= systemFrames;
    const mechanism = isObject(exception.mechanism) ? exception.mechanism : undefined;
    return {
      type: text(exception.type) ?? null,
      value: text(exception.value) ?? null,
      module: text(exception.module) ?? null,
      mechanism: mechanism ? { type: text(mechanism.type) ?? 'generic', handled: typeof mechanism.handled === 'boolean' ? mechanism.handled : null } : null,
      threadId: null,
      rawStacktrace: null,
      stacktrace: frames.length ? { frames, framesOmitted: null, registers: null, hasSystemFrames: systemFrames } : null,
    };
  });
  return { type: 'exception', data: { values, hasSystemFrames, excOmitted: null } };
}

function requestEntry(request: Json) {
  return {
    type: 'request',
    data: {
      apiTarget: null,
      method: text(request.method) ?? null,
      url: text(request.url) ?? null,
      query: pairs(request.query),
      fragment: null,
      data: request.data ?? null,
      headers: pairs(request.headers),
      cookies: [],
      env: null,
      inferredContentType: null,
    },
  };
}

function userOf(data: Json) {
  const user = isObject(data.user) ? data.user : undefined;
  if (!user) return null;
  const geo = isObject(user.geo)
    ? Object.fromEntries(
        [['country_code', user.geo.countryCode ?? user.geo.country_code], ['city', user.geo.city], ['region', user.geo.region]].filter(
          ([, value]) => typeof value === 'string',
        ),
      )
    : null;
  return {
    id: text(user.id) ?? null,
    email: text(user.email) ?? null,
    username: text(user.username) ?? null,
    ip_address: text(user.ipAddress ?? user.ip_address) ?? null,
    name: text(user.name) ?? null,
    geo,
    data: null,
  };
}

/** The event's tags as Sentry shows them, from the stored event. */
function tagsOf(data: Json, exceptions: Json[]): Array<{ key: string; value: string }> {
  const user = userOf(data);
  const request = isObject(data.request) ? data.request : {};
  const mechanism = exceptions.at(-1)?.mechanism;
  return eventTags({
    tags: pairs(data.tags),
    level: data.level, environment: data.environment, release: data.release, dist: data.dist,
    serverName: data.serverName, transaction: data.transaction, url: request.url,
    user: user && (user.id ? `id:${user.id}` : user.username ? `username:${user.username}` : user.email ? `email:${user.email}` : user.ip_address ? `ip:${user.ip_address}` : undefined),
    mechanism: isObject(mechanism) ? mechanism : undefined,
  }).map(([key, value]) => ({ key, value }));
}

function metadataOf(data: Json, exceptions: Json[], title: string): Json {
  const main = exceptions.at(-1);
  if (main && (text(main.type) || text(main.value))) {
    return { type: text(main.type) ?? 'Error', value: text(main.value) ?? '', title };
  }
  return { title };
}

/** An event as Sentry's event lists show it. */
export function serializeEventSummary(row: ErrorEventRow) {
  const data = isObject(row.data) ? row.data : {};
  const exceptions = exceptionsOf(data);
  const title = text(data.title) ?? '<unlabeled event>';
  return {
    id: row.event_id,
    'event.type': 'error',
    groupID: row.issue_id,
    eventID: row.event_id,
    projectID: row.project_id,
    message: text(data.message) ?? '',
    title,
    location: null,
    culprit: text(data.culprit) ?? '',
    user: userOf(data),
    tags: tagsOf(data, exceptions),
    platform: text(data.platform) ?? 'other',
    dateCreated: iso(row.occurred_at),
    crashFile: null,
    metadata: metadataOf(data, exceptions, title),
  };
}

/** An event in full, as Sentry's event detail shows it, with its entries built from the stored event. */
export function serializeEvent(row: ErrorEventRow, neighbours: { previous: string | null; next: string | null } = { previous: null, next: null }) {
  const data = isObject(row.data) ? row.data : {};
  const exceptions = exceptionsOf(data);
  const summary = serializeEventSummary(row);
  const message = text(data.message);
  const entries: Json[] = [];
  if (exceptions.length) entries.push(exceptionEntry(exceptions));
  if (message) entries.push({ type: 'message', data: { formatted: message, message: text(data.messageTemplate) ?? message, params: null } });
  if (isObject(data.request)) entries.push(requestEntry(data.request));
  const sdk = isObject(data.sdk) ? { name: text(data.sdk.name) ?? null, version: text(data.sdk.version) ?? null } : null;
  const release = text(data.release);
  const { 'event.type': _type, crashFile, ...rest } = summary;
  return {
    ...rest,
    type: 'error',
    message: message ?? '',
    dateReceived: iso(row.received_at),
    size: null,
    entries,
    dist: text(data.dist) ?? null,
    sdk,
    contexts: isObject(data.contexts) ? data.contexts : {},
    context: isObject(data.extra) ? data.extra : {},
    packages: {},
    errors: [],
    occurrence: null,
    _meta: {},
    crashFile,
    fingerprints: Array.isArray(data.fingerprint) ? data.fingerprint.filter((entry) => typeof entry === 'string') : [],
    environment: text(data.environment) ?? null,
    release: release ? { version: release, shortVersion: release } : null,
    userReport: null,
    sdkUpdates: [],
    resolvedWith: [],
    nextEventID: neighbours.next,
    previousEventID: neighbours.previous,
  };
}
