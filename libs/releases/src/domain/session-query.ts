import { crashFreeRate, HOUR_MS, SessionMemberKind, sessionStatuses } from './session-rollup';

/**
 * Sentry's sessions query (`GET /organizations/{org}/sessions/`): which fields, grouped by what,
 * over which intervals; and its answer `{start, end, intervals, groups: [{by, totals, series}]}`
 * computed from the kept counts the way `metrics_sessions_v2` computes it from session metrics.
 */

export const SESSION_FIELDS = [
  'sum(session)',
  'count_unique(user)',
  'crash_free_rate(session)',
  'crash_free_rate(user)',
  'crash_rate(session)',
  'crash_rate(user)',
] as const;
export type SessionField = (typeof SESSION_FIELDS)[number];
export const SESSION_GROUP_BYS = ['project', 'release', 'environment', 'session.status'] as const;
export type SessionGroupBy = (typeof SESSION_GROUP_BYS)[number];
export const SESSION_STATUSES = ['healthy', 'errored', 'abnormal', 'crashed'] as const;

/** Budgets of one query: Sentry's limit on points, and groups answered. */
export const SESSION_QUERY_LIMITS = { maxIntervals: 1000, maxGroups: 100, maxFields: 10, maxReleases: 100 } as const;

const DAY_MS = 24 * HOUR_MS;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };

export class SessionQueryError extends Error {}

export interface SessionQuery {
  readonly fields: readonly SessionField[];
  readonly groupBy: readonly SessionGroupBy[];
  readonly releases: readonly string[];
  readonly environments: readonly string[];
  readonly start: Date;
  readonly end: Date;
  readonly intervalMs: number;
  readonly intervals: number;
}

export interface SessionQueryInput {
  readonly fields: readonly string[];
  readonly groupBy: readonly string[];
  readonly query?: string;
  readonly interval?: string;
  /** The range asked for, before it is aligned to the interval; it ends by `now`. */
  readonly start: Date;
  readonly end: Date;
  readonly now: Date;
}

/**
 * Checks a query as Sentry does (`get_constrained_date_range`), with its messages: the range grows
 * to whole intervals, its end rounded up to one; an end past now answers as ending at the next minute.
 */
export function parseSessionQuery(input: SessionQueryInput): SessionQuery {
  if (input.fields.length === 0) throw new SessionQueryError('Request is missing a "field"');
  if (input.fields.length > SESSION_QUERY_LIMITS.maxFields) throw new SessionQueryError(`At most ${SESSION_QUERY_LIMITS.maxFields} fields`);
  for (const field of input.fields) if (!(SESSION_FIELDS as readonly string[]).includes(field)) throw new SessionQueryError(`Invalid field: "${field}"`);
  for (const group of input.groupBy) if (!(SESSION_GROUP_BYS as readonly string[]).includes(group)) throw new SessionQueryError(`Invalid groupBy: "${group}"`);
  const intervalMs = parseInterval(input.interval ?? '1h');
  if (intervalMs < HOUR_MS || intervalMs % HOUR_MS !== 0) throw new SessionQueryError('The interval has to be a multiple of the minimum interval of one hour.');
  if (intervalMs > DAY_MS) throw new SessionQueryError('The interval has to be less than one day.');
  if (DAY_MS % intervalMs !== 0) throw new SessionQueryError('The interval should divide one day without a remainder.');
  const end = Math.ceil(input.end.getTime() / intervalMs) * intervalMs;
  const intervals = Math.max(1, Math.ceil((input.end.getTime() - input.start.getTime()) / intervalMs));
  if (intervals > SESSION_QUERY_LIMITS.maxIntervals)
    throw new SessionQueryError('Your interval and date range would create too many results. Use a larger interval, or a smaller date range.');
  const { releases, environments } = parseSessionSearch(input.query ?? '');
  const nextMinute = Math.floor(input.now.getTime() / 60_000) * 60_000 + 60_000;
  return {
    fields: [...new Set(input.fields)] as SessionField[],
    groupBy: [...new Set(input.groupBy)] as SessionGroupBy[],
    releases,
    environments,
    start: new Date(end - intervals * intervalMs),
    end: new Date(Math.min(end, Math.max(nextMinute, end - intervals * intervalMs))),
    intervalMs,
    intervals,
  };
}

function parseInterval(value: string): number {
  const match = /^(\d{1,6})([smhdw]?)$/.exec(value);
  if (!match) throw new SessionQueryError(`Invalid interval: ${value.slice(0, 40)}`);
  return Number(match[1]) * UNIT_MS[match[2] || 's'];
}

/**
 * The sessions query's search: `release:` and `environment:` terms (a value, a quoted value, or a
 * `[a, b]` list), the only tags sessions carry; several terms of one key are alternatives.
 */
export function parseSessionSearch(query: string): { releases: string[]; environments: string[] } {
  const releases: string[] = [];
  const environments: string[] = [];
  const term = /\s*([a-z_.]+):("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^\s"[\]]+)\s*/y;
  let position = 0;
  const text = query.trim();
  while (position < text.length) {
    term.lastIndex = position;
    const match = term.exec(text);
    if (!match) throw new SessionQueryError(`Invalid query: only release: and environment: terms are supported near "${text.slice(position, position + 40)}"`);
    position = term.lastIndex;
    const [, key, raw] = match;
    const target = key === 'release' ? releases : key === 'environment' ? environments : undefined;
    if (!target) throw new SessionQueryError(`Invalid query: sessions cannot be searched by ${key.slice(0, 40)}; use release or environment`);
    const values = raw.startsWith('[')
      ? raw
          .slice(1, -1)
          .split(',')
          .map((value) => unquote(value.trim()))
      : [unquote(raw)];
    if (values.some((value) => value === '')) throw new SessionQueryError(`Invalid query: empty ${key} value`);
    target.push(...values);
  }
  if (releases.length + environments.length > SESSION_QUERY_LIMITS.maxReleases)
    throw new SessionQueryError(`Invalid query: at most ${SESSION_QUERY_LIMITS.maxReleases} values`);
  return { releases, environments };
}

const unquote = (value: string): string =>
  value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;

/** The stored group columns a group-by reads (session.status is computed, not stored). */
export type StoredGroup = Readonly<Partial<Record<'project_id' | 'release' | 'environment', string>>>;

export interface CountsInput {
  readonly group: StoredGroup;
  readonly slot: number;
  readonly started: number;
  readonly errored: number;
  readonly abnormal: number;
  readonly crashed: number;
}

export interface UsersInput {
  readonly group: StoredGroup;
  readonly kind: SessionMemberKind;
  /** Null: over the whole range. */
  readonly slot: number | null;
  readonly users: number;
}

type Totals = { started: number; errored: number; abnormal: number; crashed: number };
type Users = Record<SessionMemberKind, number>;
const noTotals = (): Totals => ({ started: 0, errored: 0, abnormal: 0, crashed: 0 });
const noUsers = (): Users => ({ 0: 0, 1: 0, 2: 0, 3: 0, 4: 0 });

interface Cell {
  sessions: Totals;
  users: Users;
}

export interface SessionGroup {
  by: Record<string, string | number | null>;
  totals: Record<string, number | null>;
  series: Record<string, Array<number | null>>;
}

export interface SessionsAnswer {
  start: string;
  end: string;
  intervals: string[];
  groups: SessionGroup[];
  query: string;
}

/** Sentry's answer from the kept counts and distinct users. */
export function answerSessionQuery(query: SessionQuery, counts: readonly CountsInput[], users: readonly UsersInput[], search: string): SessionsAnswer {
  const groups = new Map<string, { group: StoredGroup; total: Cell; series: Cell[] }>();
  const entry = (group: StoredGroup) => {
    const key = JSON.stringify([group.project_id, group.release, group.environment]);
    let found = groups.get(key);
    if (!found) {
      found = {
        group,
        total: { sessions: noTotals(), users: noUsers() },
        series: Array.from({ length: query.intervals }, () => ({ sessions: noTotals(), users: noUsers() })),
      };
      groups.set(key, found);
    }
    return found;
  };
  for (const row of counts) {
    if (row.slot < 0 || row.slot >= query.intervals) continue;
    const target = entry(row.group);
    for (const cell of [target.total, target.series[row.slot]]) {
      cell.sessions.started += row.started;
      cell.sessions.errored += row.errored;
      cell.sessions.abnormal += row.abnormal;
      cell.sessions.crashed += row.crashed;
    }
  }
  for (const row of users) {
    if (row.slot !== null && (row.slot < 0 || row.slot >= query.intervals)) continue;
    const target = entry(row.group);
    (row.slot === null ? target.total : target.series[row.slot]).users[row.kind] += row.users;
  }
  // Without a group-by there is always the one group, as in Sentry.
  if (groups.size === 0 && !query.groupBy.some((group) => group !== 'session.status')) entry({});

  const byStatus = query.groupBy.includes('session.status');
  const answer: SessionGroup[] = [];
  for (const { group, total, series } of groups.values()) {
    const by: Record<string, string | number | null> = {};
    if (query.groupBy.includes('project')) by.project = Number(group.project_id);
    if (query.groupBy.includes('release')) by.release = group.release ?? null;
    if (query.groupBy.includes('environment')) by.environment = group.environment || null;
    for (const status of byStatus ? SESSION_STATUSES : [undefined]) {
      answer.push({
        by: status ? { ...by, 'session.status': status } : by,
        totals: Object.fromEntries(query.fields.map((field) => [field, fieldValue(field, total, status)])),
        series: Object.fromEntries(query.fields.map((field) => [field, series.map((cell) => fieldValue(field, cell, status))])),
      });
    }
  }
  const sessionsOf = (group: SessionGroup) => Number(group.totals['sum(session)'] ?? 0);
  answer.sort((a, b) => sessionsOf(b) - sessionsOf(a) || JSON.stringify(a.by).localeCompare(JSON.stringify(b.by)));
  return {
    start: sentryTime(query.start),
    end: sentryTime(query.end),
    intervals: Array.from({ length: query.intervals }, (_, index) => sentryTime(new Date(query.start.getTime() + index * query.intervalMs))),
    groups: answer.slice(0, SESSION_QUERY_LIMITS.maxGroups),
    query: search,
  };
}

function fieldValue(field: SessionField, cell: Cell, status: (typeof SESSION_STATUSES)[number] | undefined): number | null {
  const { sessions, users } = cell;
  const allUsers = users[SessionMemberKind.user];
  const crashedUsers = users[SessionMemberKind.crashedUser];
  if (status) {
    // Sentry answers rates per status as null: a rate is over all statuses.
    if (field !== 'sum(session)' && field !== 'count_unique(user)') return null;
    if (field === 'sum(session)') return sessionStatuses(sessions)[status];
    return sessionStatuses({
      started: allUsers,
      errored: users[SessionMemberKind.erroredUser],
      abnormal: users[SessionMemberKind.abnormalUser],
      crashed: crashedUsers,
    })[status];
  }
  switch (field) {
    case 'sum(session)':
      return sessions.started;
    case 'count_unique(user)':
      return allUsers;
    case 'crash_free_rate(session)':
      return crashFreeRate(sessions.started, sessions.crashed);
    case 'crash_free_rate(user)':
      return crashFreeRate(allUsers, crashedUsers);
    case 'crash_rate(session)':
      return complement(crashFreeRate(sessions.started, sessions.crashed));
    case 'crash_rate(user)':
      return complement(crashFreeRate(allUsers, crashedUsers));
  }
}

const complement = (rate: number | null): number | null => (rate === null ? null : 1 - rate);

/** Sentry's interval times: ISO 8601 to the second, UTC with a Z. */
const sentryTime = (time: Date): string => time.toISOString().replace(/\.\d{3}Z$/, 'Z');
