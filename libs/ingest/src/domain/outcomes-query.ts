import { isNumericId } from '@faultline/kernel';
import { type DataCategory, ERROR_CATEGORIES, isDataCategory, isErrorCategory } from './data-category';
import { isOutcome, type Outcome } from './outcome';

/**
 * Sentry's organization stats query (`GET /organizations/{org}/stats_v2/`, `sentry/snuba/outcomes.py`
 * and `sessions_v2.get_constrained_date_range`): fields, groupings, filters and a time range of
 * whole intervals, with Sentry's messages for what it refuses.
 */
export const OUTCOMES_QUERY_LIMITS = {
  /** Intervals one answer may hold (Sentry's MAX_POINTS). */
  maxIntervals: 1000,
  /** How far back a range may start (Sentry keeps outcomes 90 days). */
  maxPeriodSeconds: 90 * 86400,
  /** Values of one repeated filter parameter. */
  maxFilterValues: 100,
} as const;

export const OUTCOME_FIELDS = ['sum(quantity)', 'sum(times_seen)'] as const;
export type OutcomeField = (typeof OUTCOME_FIELDS)[number];
export const OUTCOME_GROUPINGS = ['outcome', 'category', 'project', 'reason'] as const;
export type OutcomeGrouping = (typeof OUTCOME_GROUPINGS)[number];

const HOUR = 3600;
const DAY = 86400;
const DEFAULT_PERIOD_SECONDS = 90 * DAY;
const PERIOD = /^(\d{1,9})([smhdw]?)$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: HOUR, d: DAY, w: 7 * DAY };

export interface OutcomesQueryParams {
  readonly field: readonly string[];
  readonly groupBy: readonly string[];
  readonly category: readonly string[];
  readonly outcome: readonly string[];
  readonly reason: readonly string[];
  readonly project: readonly string[];
  readonly statsPeriod?: string;
  readonly start?: string;
  readonly end?: string;
  readonly interval?: string;
}

export interface OutcomesQuery {
  readonly fields: readonly OutcomeField[];
  readonly groupBy: readonly OutcomeGrouping[];
  /** Empty: every category (grouped by category then). `error` stands for the error categories. */
  readonly categories: readonly DataCategory[];
  readonly outcomes: readonly Outcome[];
  readonly reasons: readonly string[];
  /** Project ids asked for; empty (or -1) means every project the caller may see. */
  readonly projectIds: readonly string[];
  /** Epoch seconds: the first interval's start and the last one's end. */
  readonly start: number;
  readonly end: number;
  readonly intervalSeconds: number;
  /** The rollup the range is read from: days when the intervals are whole UTC days. */
  readonly resolution: '1h' | '1d';
}

export class OutcomesQueryError extends Error {}

const fail = (message: string): never => {
  throw new OutcomesQueryError(message);
};

/** Seconds of a `<number><unit>` period (s, m, h, d, w; a bare number is seconds), as Sentry's `parse_stats_period`. */
export function parsePeriod(value: string): number | undefined {
  const match = PERIOD.exec(value);
  return match ? Number(match[1]) * UNIT_SECONDS[match[2]] : undefined;
}

function parseTime(value: string, name: string): number {
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value);
  return Number.isNaN(at) ? fail(`${name}: ${value} is not a valid ISO 8601 date`) : Math.floor(at / 1000);
}

function bounded(values: readonly string[], name: string): readonly string[] {
  return values.length > OUTCOMES_QUERY_LIMITS.maxFilterValues ? fail(`At most ${OUTCOMES_QUERY_LIMITS.maxFilterValues} values of ${name}`) : values;
}

/** Reads a stats_v2 query, or throws OutcomesQueryError with the message Sentry answers 400 with. */
export function parseOutcomesQuery(params: OutcomesQueryParams, nowSeconds: number): OutcomesQuery {
  if (params.field.length === 0) fail('At least one "field" is required.');
  const fields = params.field.map((field) =>
    (OUTCOME_FIELDS as readonly string[]).includes(field) ? (field as OutcomeField) : fail(`Invalid field: "${field}"`),
  );
  const groupBy = params.groupBy.map((key) =>
    (OUTCOME_GROUPINGS as readonly string[]).includes(key) ? (key as OutcomeGrouping) : fail(`Invalid groupBy: "${key}"`),
  );
  const categories = new Set<DataCategory>();
  for (const category of bounded(params.category, 'category')) {
    if (!isDataCategory(category)) fail(`Invalid category: "${category}"`);
    // Sentry shows default and security events as errors.
    for (const resolved of isErrorCategory(category as DataCategory) ? ERROR_CATEGORIES : [category as DataCategory]) categories.add(resolved);
  }
  if (categories.has('attachment') && categories.size > 1) fail('if filtering by attachment no other category may be present');
  if (categories.size === 0 && !groupBy.includes('category')) fail('Query must have category as groupby or filter');
  const outcomes = bounded(params.outcome, 'outcome').map((outcome) => (isOutcome(outcome) ? outcome : fail(`Invalid outcome: "${outcome}"`)));
  const projectIds = bounded(params.project, 'project').filter((id) => id !== '');
  for (const id of projectIds) if (!isNumericId(id.startsWith('-') ? id.slice(1) : id)) fail(`Invalid project ids: ${id}`);

  let from: number;
  let to = nowSeconds;
  if (params.start || params.end) {
    if (!params.start || !params.end) fail('start and end are both required');
    from = parseTime(params.start as string, 'start');
    to = parseTime(params.end as string, 'end');
    if (from > to) fail('start must be before end');
  } else {
    const period = params.statsPeriod ? parsePeriod(params.statsPeriod) : DEFAULT_PERIOD_SECONDS;
    if (period === undefined || period === 0) return fail(`Invalid statsPeriod: '${params.statsPeriod}'`);
    from = nowSeconds - period;
  }
  from = Math.min(from, nowSeconds);
  if (to - from > OUTCOMES_QUERY_LIMITS.maxPeriodSeconds) fail('The date range may not be longer than 90 days.');

  // Without an interval: hours, or days where hours would be too many (the default 90 days).
  const defaultInterval = (to - from) / HOUR > OUTCOMES_QUERY_LIMITS.maxIntervals ? DAY : HOUR;
  const intervalSeconds = params.interval ? (parsePeriod(params.interval) ?? fail(`Invalid interval: ${params.interval}`)) : defaultInterval;
  if (intervalSeconds < HOUR || intervalSeconds % HOUR !== 0) fail('The interval has to be a multiple of the minimum interval of one hour.');
  if (intervalSeconds > DAY) fail('The interval has to be less than one day.');
  if (DAY % intervalSeconds !== 0) fail('The interval should divide one day without a remainder.');

  // Whole intervals: a day interval is read from the daily rollup (UTC days), shorter ones are
  // aligned to the hour, as Sentry aligns them, and the range ends at the end of `to`'s hour.
  const align = intervalSeconds === DAY ? DAY : HOUR;
  const end = Math.ceil(to / align) * align;
  const count = Math.max(1, Math.ceil((end - Math.floor(from / align) * align) / intervalSeconds));
  if (count > OUTCOMES_QUERY_LIMITS.maxIntervals)
    fail('Your interval and date range would create too many results. Use a larger interval, or a smaller date range.');
  return {
    fields,
    groupBy,
    categories: [...categories],
    outcomes,
    reasons: bounded(params.reason, 'reason').filter((reason) => reason !== ''),
    projectIds: projectIds.includes('-1') ? [] : projectIds,
    start: end - count * intervalSeconds,
    end,
    intervalSeconds,
    resolution: intervalSeconds === DAY ? '1d' : '1h',
  };
}

/** A row of the rollup, summed over the query's groupings and one interval. */
export interface OutcomeTotalsRow {
  readonly interval: number;
  readonly outcome: Outcome;
  readonly category: DataCategory;
  readonly projectId: string;
  readonly reason: string | null;
  readonly quantity: number;
  readonly timesSeen: number;
}

export interface OutcomesGroup {
  by: Record<string, string | number | null>;
  totals: Record<string, number>;
  series?: Record<string, number[]>;
}

export interface OutcomesAnswer {
  start: string;
  end: string;
  intervals?: string[];
  groups: OutcomesGroup[];
}

const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Sentry's answer (`massage_outcomes_result`): one group per combination of the grouped values,
 * with totals and a series over every interval; error categories shown as `error`. Grouped by
 * project, Sentry answers totals only (no series, no intervals).
 */
export function outcomesAnswer(query: OutcomesQuery, rows: readonly OutcomeTotalsRow[]): OutcomesAnswer {
  const count = (query.end - query.start) / query.intervalSeconds;
  const withSeries = !query.groupBy.includes('project');
  const groups = new Map<string, OutcomesGroup>();
  for (const row of rows) {
    const by: Record<string, string | number | null> = {};
    for (const key of query.groupBy) {
      if (key === 'outcome') by.outcome = row.outcome;
      else if (key === 'category') by.category = isErrorCategory(row.category) ? 'error' : row.category;
      else if (key === 'project') by.project = Number(row.projectId);
      else by.reason = row.reason;
    }
    const id = JSON.stringify(query.groupBy.map((key) => by[key]));
    let group = groups.get(id);
    if (!group) {
      group = { by, totals: Object.fromEntries(query.fields.map((field) => [field, 0])) };
      if (withSeries) group.series = Object.fromEntries(query.fields.map((field) => [field, new Array<number>(count).fill(0)]));
      groups.set(id, group);
    }
    for (const field of query.fields) {
      const value = field === 'sum(quantity)' ? row.quantity : row.timesSeen;
      group.totals[field] += value;
      if (group.series) group.series[field][row.interval] += value;
    }
  }
  const answer: OutcomesAnswer = { start: isoSeconds(query.start), end: isoSeconds(query.end), groups: [...groups.values()] };
  if (withSeries) answer.intervals = Array.from({ length: count }, (_, index) => isoSeconds(query.start + index * query.intervalSeconds));
  return answer;
}
