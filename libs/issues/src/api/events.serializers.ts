import type { ErrorEventRow } from '../infrastructure/issue-read-model.repository';
import { eventTags } from '../domain';

/**
 * Stored events are the ingest context's normalised events (camelCase, tags as [key, value]
 * pairs, chained exceptions oldest first). Anything may be missing or malformed in old rows (older
 * versions kept fewer parts, and the oldest kept some in Sentry's snake_case), so every read here
 * is defensive.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const integer = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const objectOrNull = (value: unknown): Json | null => (isObject(value) ? value : null);
const iso = (value: Date | string): string => new Date(value).toISOString();
/** A field stored in camelCase, or in the snake_case of the oldest rows. */
const either = (source: Json, camel: string, snake: string): unknown => source[camel] ?? source[snake];
/** Sentry's `prune_empty_keys`: the keys whose value is not null. */
const pruned = (entries: Array<[string, unknown]>): Json => Object.fromEntries(entries.filter(([, value]) => value !== undefined && value !== null));

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

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string') : []);

/** The chained exceptions, oldest first, wherever the event keeps them. */
function exceptionsOf(data: Json): Json[] {
  const raw = data.exceptions ?? (isObject(data.exception) ? data.exception.values : data.exception);
  return Array.isArray(raw) ? raw.filter(isObject) : [];
}

/** Sentry's `get_context`: the source lines around the frame's line, numbered. */
function contextOf(frame: Json, lineNo: number | undefined): Array<[number, string | null]> {
  const pre = strings(either(frame, 'preContext', 'pre_context'));
  const post = strings(either(frame, 'postContext', 'post_context'));
  const contextLine = text(either(frame, 'contextLine', 'context_line'));
  if (lineNo === undefined || (contextLine === undefined && pre.length === 0 && post.length === 0)) return [];
  const first = lineNo - pre.length;
  return [
    ...pre.map((line, index): [number, string] => [first + index, line]),
    [lineNo, contextLine ?? null],
    ...post.map((line, index): [number, string] => [lineNo + 1 + index, line]),
  ];
}

function frameOf(frame: Json) {
  const lineNo = integer(either(frame, 'lineno', 'lineNo'));
  const addrMode = text(frame.addrMode);
  return {
    filename: text(frame.filename) ?? null,
    absPath: text(either(frame, 'absPath', 'abs_path')) ?? null,
    module: text(frame.module) ?? null,
    package: text(frame.package) ?? null,
    platform: text(frame.platform) ?? null,
    instructionAddr: text(frame.instructionAddr) ?? null,
    symbolAddr: text(frame.symbolAddr) ?? null,
    function: text(frame.function) ?? null,
    rawFunction: text(frame.rawFunction) ?? null,
    symbol: text(frame.symbol) ?? null,
    context: contextOf(frame, lineNo),
    lineNo: lineNo ?? null,
    colNo: integer(either(frame, 'colno', 'colNo')) ?? null,
    inApp: bool(either(frame, 'inApp', 'in_app')) ?? false,
    trust: text(frame.trust) ?? null,
    errors: null,
    lock: null,
    sourceLink: null,
    vars: objectOrNull(frame.vars),
    ...(addrMode && addrMode !== 'abs' ? { addrMode } : {}),
  };
}

/** `hasSystemFrames` is, as in Sentry, whether any frame is in-app: only then is there a split to show. */
function stacktraceOf(value: unknown) {
  if (!isObject(value) || !Array.isArray(value.frames)) return null;
  const frames = value.frames.filter(isObject).map(frameOf);
  if (frames.length === 0) return null;
  return {
    frames,
    framesOmitted: Array.isArray(value.framesOmitted) ? value.framesOmitted : null,
    registers: objectOrNull(value.registers),
    hasSystemFrames: frames.some((frame) => frame.inApp),
  };
}

/** Sentry shows a mechanism as the SDK sent it, in snake_case, without empty keys. */
function mechanismOf(value: unknown): Json | null {
  if (!isObject(value)) return null;
  return pruned([
    ['type', text(value.type) ?? 'generic'],
    ['synthetic', bool(value.synthetic)],
    ['description', text(value.description)],
    ['help_link', text(value.helpLink)],
    ['handled', bool(value.handled)],
    ['data', objectOrNull(value.data)],
    ['meta', objectOrNull(value.meta)],
    ['source', text(value.source)],
    ['exception_id', integer(value.exceptionId)],
    ['parent_id', integer(value.parentId)],
    ['is_exception_group', bool(value.isExceptionGroup)],
  ]);
}

function exceptionEntry(exceptions: Json[]) {
  const values = exceptions.map((exception) => ({
    type: text(exception.type) ?? null,
    value: text(exception.value) ?? null,
    module: text(exception.module) ?? null,
    mechanism: mechanismOf(exception.mechanism),
    threadId: text(exception.threadId) ?? integer(exception.threadId) ?? null,
    rawStacktrace: stacktraceOf(exception.rawStacktrace),
    stacktrace: stacktraceOf(exception.stacktrace),
  }));
  return { type: 'exception', data: { values, hasSystemFrames: values.some((value) => value.stacktrace?.hasSystemFrames), excOmitted: null } };
}

function messageEntry(data: Json, message: string) {
  return { type: 'message', data: { formatted: message, message: text(data.messageTemplate) ?? null, params: data.messageParams ?? null } };
}

function threadsEntry(threads: unknown[]) {
  const values = threads.filter(isObject).map((thread) => ({
    id: text(thread.id) ?? integer(thread.id) ?? null,
    ...(typeof thread.main === 'boolean' ? { main: thread.main } : {}),
    current: bool(thread.current) ?? false,
    crashed: bool(thread.crashed) ?? false,
    name: text(thread.name) ?? null,
    ...(typeof thread.state === 'string' ? { state: thread.state } : {}),
    stacktrace: stacktraceOf(thread.stacktrace),
    rawStacktrace: null,
  }));
  return { type: 'threads', data: { values } };
}

/** A crumb's time as sent (seconds since the epoch, or RFC 3339; no zone is UTC) in ISO 8601. */
function crumbTime(value: unknown): string | null {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const ms =
    typeof value === 'number'
      ? value * 1000
      : text && /^\d+(\.\d+)?$/.test(text)
        ? Number(text) * 1000
        : text
          ? Date.parse(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`)
          : NaN;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/** Sentry's defaults for what a crumb left out: type `default`, level `info`. */
function breadcrumbsEntry(breadcrumbs: unknown[]) {
  const values = breadcrumbs.filter(isObject).map((crumb) => ({
    type: text(crumb.type) ?? 'default',
    timestamp: crumbTime(crumb.timestamp),
    level: text(crumb.level) ?? 'info',
    message: text(crumb.message) ?? null,
    category: text(crumb.category) ?? null,
    data: isObject(crumb.data) && Object.keys(crumb.data).length > 0 ? crumb.data : null,
    event_id: text(either(crumb, 'eventId', 'event_id')) ?? null,
  }));
  return { type: 'breadcrumbs', data: { values } };
}

function requestEntry(request: Json) {
  return {
    type: 'request',
    data: {
      apiTarget: null,
      method: text(request.method) ?? null,
      url: text(request.url) ?? null,
      query: pairs(request.query),
      fragment: text(request.fragment) ?? null,
      data: request.data ?? null,
      headers: pairs(request.headers),
      cookies: pairs(request.cookies),
      env: objectOrNull(request.env),
      inferredContentType: text(request.inferredContentType) ?? null,
    },
  };
}

function templateEntry(template: Json) {
  const lineNo = integer(template.lineno);
  return { type: 'template', data: { lineNo: lineNo ?? null, filename: text(template.filename) ?? null, context: contextOf(template, lineNo) } };
}

function debugMetaEntry(debugMeta: Json) {
  return {
    type: 'debugmeta',
    data: pruned([
      ['images', Array.isArray(debugMeta.images) && debugMeta.images.length > 0 ? debugMeta.images : null],
      ['sdk_info', objectOrNull(debugMeta.sdkInfo)],
      ['is_debug_build', bool(debugMeta.isDebugBuild)],
    ]),
  };
}

/**
 * The event's interfaces as Sentry's `entries`, in its display order (each interface's display
 * score, highest first): message, exception, stacktrace, threads, security reports, breadcrumbs,
 * template, request, debug meta.
 */
function entriesOf(data: Json, exceptions: Json[], message: string | undefined): Json[] {
  const entries: Json[] = [];
  if (message) entries.push(messageEntry(data, message));
  if (exceptions.length) entries.push(exceptionEntry(exceptions));
  const stacktrace = stacktraceOf(data.stacktrace);
  if (stacktrace) entries.push({ type: 'stacktrace', data: stacktrace });
  if (Array.isArray(data.threads) && data.threads.length > 0) entries.push(threadsEntry(data.threads));
  if (isObject(data.securityReports)) {
    for (const [type, report] of Object.entries(data.securityReports)) if (isObject(report)) entries.push({ type, data: report });
  }
  if (Array.isArray(data.breadcrumbs) && data.breadcrumbs.length > 0) entries.push(breadcrumbsEntry(data.breadcrumbs));
  if (isObject(data.template)) entries.push(templateEntry(data.template));
  if (isObject(data.request)) entries.push(requestEntry(data.request));
  if (isObject(data.debugMeta)) entries.push(debugMetaEntry(data.debugMeta));
  return entries;
}

/** Context types Sentry knows; any other context is shown with type `default`. */
const CONTEXT_TYPES = new Set(['default', 'app', 'device', 'runtime', 'browser', 'os', 'gpu', 'monitor', 'trace', 'otel']);

/** Each context as Sentry shows it: its fields without nulls, and `type` (its own, or its key's). */
function contextsOf(value: unknown): Json {
  if (!isObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter((entry): entry is [string, Json] => isObject(entry[1]))
      .map(([alias, context]) => {
        const declared = typeof context.type === 'string' ? context.type : alias;
        return [alias, { ...pruned(Object.entries(context)), type: CONTEXT_TYPES.has(declared) ? declared : 'default' }];
      }),
  );
}

function userOf(data: Json) {
  const user = isObject(data.user) ? data.user : undefined;
  if (!user) return null;
  const geo = isObject(user.geo)
    ? pruned([
        ['country_code', text(either(user.geo, 'countryCode', 'country_code'))],
        ['city', text(user.geo.city)],
        ['subdivision', text(user.geo.subdivision)],
        ['region', text(user.geo.region)],
      ])
    : null;
  return {
    id: text(user.id) ?? null,
    email: text(user.email) ?? null,
    username: text(user.username) ?? null,
    ip_address: text(either(user, 'ipAddress', 'ip_address')) ?? null,
    name: text(user.name) ?? null,
    geo,
    data: objectOrNull(user.data),
  };
}

/** The event's tags as Sentry shows them, from the stored event. */
function tagsOf(data: Json, exceptions: Json[]): Array<{ key: string; value: string }> {
  const user = userOf(data);
  const request = isObject(data.request) ? data.request : {};
  const mechanism = exceptions.at(-1)?.mechanism;
  return eventTags({
    tags: pairs(data.tags),
    level: data.level,
    environment: data.environment,
    release: data.release,
    dist: data.dist,
    serverName: data.serverName,
    transaction: data.transaction,
    url: request.url,
    user:
      user &&
      (user.id
        ? `id:${user.id}`
        : user.username
          ? `username:${user.username}`
          : user.email
            ? `email:${user.email}`
            : user.ip_address
              ? `ip:${user.ip_address}`
              : undefined),
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

/**
 * Sentry's `_meta` of the event as shown: what data scrubbing changed (remarks, original lengths),
 * moved from the stored event's paths to the paths of the fields that show them. The stored and
 * shown names match inside each part; only the parts move (extra is `context`, the request is an
 * entry's data, and so on).
 */
function metaOf(data: Json, entries: Json[], tags: ReadonlyArray<{ key: string }>): Json {
  const stored = isObject(data._meta) ? data._meta : {};
  const meta: Json = {};
  const set = (key: string, value: unknown) => {
    if (isObject(value)) meta[key] = value;
  };
  set('context', stored.extra);
  set('contexts', stored.contexts);
  set('message', stored.message);
  if (isObject(stored.user)) {
    const { ipAddress, ...user } = stored.user;
    meta.user = pruned([...Object.entries(user), ['ip_address', ipAddress]]);
  }
  if (isObject(stored.tags) && Array.isArray(data.tags)) {
    // Stored tags are in the order sent; shown ones are sorted by key.
    const sent = data.tags as unknown[];
    meta.tags = Object.fromEntries(
      Object.entries(stored.tags).flatMap(([index, tag]) => {
        const pair = sent[Number(index)];
        const shown = Array.isArray(pair) ? tags.findIndex((candidate) => candidate.key === pair[0]) : -1;
        return isObject(tag) && isObject(tag[1]) && shown >= 0 ? [[String(shown), { value: tag[1] }]] : [];
      }),
    );
  }
  const shown: Json = {};
  entries.forEach((entry, index) => {
    const part = entryMeta(String(entry.type), stored);
    if (part) shown[index] = { data: part };
  });
  if (Object.keys(shown).length > 0) meta.entries = shown;
  return meta;
}

function entryMeta(type: string, stored: Json): Json | undefined {
  const present = (entries: Array<[string, unknown]>) => {
    const found = pruned(entries);
    return Object.keys(found).length > 0 ? found : undefined;
  };
  switch (type) {
    case 'message':
      return present([
        ['formatted', stored.message],
        ['message', stored.messageTemplate],
        ['params', stored.messageParams],
      ]);
    case 'exception':
    case 'breadcrumbs':
    case 'threads':
      return present([['values', stored[type === 'exception' ? 'exceptions' : type]]]);
    case 'stacktrace':
    case 'request':
      return isObject(stored[type]) ? (stored[type] as Json) : undefined;
    default:
      return undefined;
  }
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
  const summary = serializeEventSummary(row);
  const message = text(data.message);
  const sdk = isObject(data.sdk) ? { name: text(data.sdk.name) ?? null, version: text(data.sdk.version) ?? null } : null;
  const release = text(data.release);
  const { 'event.type': _type, crashFile, ...rest } = summary;
  const entries = entriesOf(data, exceptionsOf(data), message);
  return {
    ...rest,
    type: 'error',
    message: message ?? '',
    dateReceived: iso(row.received_at),
    size: null,
    entries,
    dist: text(data.dist) ?? null,
    sdk,
    contexts: contextsOf(data.contexts),
    context: isObject(data.extra) ? data.extra : {},
    packages: isObject(data.modules) ? data.modules : {},
    errors: Array.isArray(data.errors) ? data.errors.filter(isObject) : [],
    occurrence: null,
    _meta: metaOf(data, entries, summary.tags),
    crashFile,
    // Sentry's `fingerprints` are the grouping hashes the event was grouped by.
    fingerprints: row.grouping_hash ? [row.grouping_hash] : [],
    environment: text(data.environment) ?? null,
    release: release ? { version: release, shortVersion: release } : null,
    userReport: null,
    sdkUpdates: [],
    resolvedWith: [],
    nextEventID: neighbours.next,
    previousEventID: neighbours.previous,
  };
}
