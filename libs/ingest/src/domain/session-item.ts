import { parseStorableJson } from './storable-text';

/**
 * Sentry's session protocol (https://develop.sentry.dev/sdk/telemetry/sessions/): a `session` item
 * is one update of one session, a `sessions` item pre-aggregated counts (server-mode SDKs). Read the
 * way Relay's `session.rs` reads them, and reduced to what release health counts, as Relay's
 * session metrics extraction does: a session counts once, at its `init` update; an update with
 * errors or an error status makes it errored (once per session id, deduplicated where it is kept);
 * crashed and abnormal updates count as such.
 */

/** Budgets of one session item, beside the envelope's own (Relay keeps at most 100 sessions per envelope). */
export const SESSION_ITEM_LIMITS = {
  /** Largest `session`/`sessions` payload; a real one is a few hundred bytes. */
  maxItemBytes: 64 * 1024,
  /** Buckets in one `sessions` aggregate item. */
  maxAggregates: 100,
  /** Sentry's limits on a release name and an environment name. */
  maxReleaseChars: 200,
  maxEnvironmentChars: 64,
  /** Relay's: sessions started longer ago are dropped (`max_session_secs_in_past`), and those that start in the future. */
  maxAgeSeconds: 5 * 24 * 3600,
  maxFutureSeconds: 60,
  /** A count in one aggregate bucket (Relay's are u32). */
  maxCount: 0xffff_ffff,
} as const;

/** What one session item adds to its release's health. */
export interface ParsedSession {
  readonly release: string;
  /** Null when the SDK sent none. */
  readonly environment: string | null;
  /** ISO time the session (or the aggregate's bucket) started: its hour is where it is counted. */
  readonly started: string;
  readonly distinctId: string | null;
  /** The session's id for an update (errored is counted once per id), null for aggregates. */
  readonly sessionId: string | null;
  /** Sessions started: 1 for an `init` update, the bucket's total for an aggregate. */
  readonly total: number;
  /** Errored sessions, crashed and abnormal ones among them. */
  readonly errored: number;
  readonly abnormal: number;
  readonly crashed: number;
}

const STATUSES = new Set(['ok', 'exited', 'crashed', 'abnormal', 'errored']);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type Problem = { problem: string };

/** The sessions an item carries, by its type; undefined for items that are not sessions. */
export function sessionsOfItem(type: string, payload: Buffer, now: Date): ParsedSession[] | Problem | undefined {
  if (type !== 'session' && type !== 'sessions') return undefined;
  if (payload.length > SESSION_ITEM_LIMITS.maxItemBytes) return { problem: `the ${type} item is over ${SESSION_ITEM_LIMITS.maxItemBytes} bytes` };
  let value: unknown;
  try {
    value = parseStorableJson(payload.toString('utf8'));
  } catch {
    return { problem: `the ${type} item is not valid JSON` };
  }
  const parsed = type === 'session' ? sessionUpdateOf(value, now) : sessionAggregatesOf(value, now);
  return 'problem' in parsed ? parsed : parsed.sessions;
}

/** One update of one session: `{sid, did?, init?, status?, errors?, started, attrs: {release, environment?}}`. */
export function sessionUpdateOf(value: unknown, now: Date): { sessions: ParsedSession[] } | Problem {
  if (!isObject(value)) return { problem: 'a session is a JSON object' };
  if (typeof value.sid !== 'string' || !UUID.test(value.sid)) return { problem: 'sid must be a UUID' };
  const attrs = attributesOf(value.attrs);
  if ('problem' in attrs) return attrs;
  const started = startedOf(value.started, now);
  if (typeof started !== 'string') return started;
  const status = value.status ?? 'ok';
  if (typeof status !== 'string' || !STATUSES.has(status)) return { problem: 'status must be ok, exited, crashed, abnormal or errored' };
  const errors = value.errors ?? 0;
  if (!isCount(errors)) return { problem: 'errors must be a non-negative integer' };
  if (value.init !== undefined && typeof value.init !== 'boolean') return { problem: 'init must be a boolean' };
  const errored = errors > 0 || status === 'errored' || status === 'crashed' || status === 'abnormal';
  const session: ParsedSession = {
    ...attrs,
    started,
    distinctId: distinctIdOf(value.did),
    sessionId: value.sid.replace(/-/g, '').toLowerCase(),
    total: value.init === true ? 1 : 0,
    errored: errored ? 1 : 0,
    abnormal: status === 'abnormal' ? 1 : 0,
    crashed: status === 'crashed' ? 1 : 0,
  };
  // An update that is neither the first nor an error adds nothing (Relay extracts nothing from it).
  return { sessions: session.total + session.errored === 0 ? [] : [session] };
}

/** Pre-aggregated sessions: `{aggregates: [{started, did?, exited?, errored?, abnormal?, crashed?}], attrs}`. */
export function sessionAggregatesOf(value: unknown, now: Date): { sessions: ParsedSession[] } | Problem {
  if (!isObject(value)) return { problem: 'a sessions item is a JSON object' };
  const attrs = attributesOf(value.attrs);
  if ('problem' in attrs) return attrs;
  if (!Array.isArray(value.aggregates)) return { problem: 'aggregates must be a list' };
  if (value.aggregates.length > SESSION_ITEM_LIMITS.maxAggregates) return { problem: `aggregates has more than ${SESSION_ITEM_LIMITS.maxAggregates} entries` };
  const sessions: ParsedSession[] = [];
  for (const entry of value.aggregates as unknown[]) {
    if (!isObject(entry)) return { problem: 'each aggregate is a JSON object' };
    const counts = { exited: entry.exited ?? 0, errored: entry.errored ?? 0, abnormal: entry.abnormal ?? 0, crashed: entry.crashed ?? 0 };
    for (const [name, count] of Object.entries(counts)) if (!isCount(count)) return { problem: `${name} must be a non-negative integer` };
    const { exited, errored, abnormal, crashed } = counts as Record<keyof typeof counts, number>;
    const started = startedOf(entry.started, now);
    // A bucket out of the accepted time range is dropped alone, as Relay drops it.
    if (typeof started !== 'string') continue;
    const total = exited + errored + abnormal + crashed;
    if (total === 0) continue;
    // Relay: a bucket's errored sessions are its errored, abnormal and crashed ones.
    sessions.push({ ...attrs, started, distinctId: distinctIdOf(entry.did), sessionId: null, total, errored: errored + abnormal + crashed, abnormal, crashed });
  }
  return { sessions };
}

function attributesOf(value: unknown): { release: string; environment: string | null } | Problem {
  if (!isObject(value)) return { problem: 'attrs with a release are required' };
  const release = typeof value.release === 'string' ? value.release.trim() : '';
  if (release === '') return { problem: 'attrs.release is required' };
  if (release.length > SESSION_ITEM_LIMITS.maxReleaseChars)
    return { problem: `attrs.release is longer than ${SESSION_ITEM_LIMITS.maxReleaseChars} characters` };
  // Sentry's release name rules: no line breaks, tabs or slashes, and not a name that means something else.
  if (/[\n\r\t/\\]/.test(release) || ['.', '..', 'latest'].includes(release)) return { problem: 'attrs.release is not a valid release name' };
  const environment = value.environment ?? null;
  if (environment === null) return { release, environment: null };
  if (typeof environment !== 'string' || environment.length > SESSION_ITEM_LIMITS.maxEnvironmentChars || /[\n\r\t/]/.test(environment))
    return { problem: `attrs.environment must be a name of at most ${SESSION_ITEM_LIMITS.maxEnvironmentChars} characters without slashes or line breaks` };
  return { release, environment: environment === '' ? null : environment };
}

/** RFC 3339 or seconds since the epoch, within the time range Relay accepts. */
function startedOf(value: unknown, now: Date): string | Problem {
  const time = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) return { problem: 'started must be a time' };
  if (time < now.getTime() - SESSION_ITEM_LIMITS.maxAgeSeconds * 1000) return { problem: 'the session started too long ago' };
  if (time > now.getTime() + SESSION_ITEM_LIMITS.maxFutureSeconds * 1000) return { problem: 'the session starts in the future' };
  return new Date(time).toISOString();
}

/** Relay treats an empty or nil-UUID distinct id as none. */
function distinctIdOf(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const id = String(value);
  return id === '' || /^0{8}-?0{4}-?0{4}-?0{4}-?0{12}$/.test(id) ? null : id;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= SESSION_ITEM_LIMITS.maxCount;
}
