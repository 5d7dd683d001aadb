import { BadRequestException } from '@nestjs/common';

const PERIOD = /^(\d{1,6})([smhdw])$/;
const PERIOD_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** Sentry's default range of an event search. */
const DEFAULT_PERIOD = '14d';
const EPOCH = new Date(0).toISOString();

/** A repeatable query parameter as a list. */
export const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());

/** A query parameter that may be given once. */
export function one(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw new BadRequestException({ detail: `Give the ${name} parameter once.` });
  return value;
}

export interface TimeRangeParams {
  readonly statsPeriod?: string;
  readonly start?: string;
  readonly end?: string;
}

/**
 * Sentry's time range of a search (events, sessions): `statsPeriod` (24h, 14d, …) back from now, or `start`
 * and `end`. When none is given: 14 days back, or all time when `unbounded` (an issue's events).
 */
export function eventTimeRange(now: Date, params: TimeRangeParams, options: { unbounded?: boolean } = {}): { start: string; end: string } {
  const { statsPeriod, start, end } = params;
  if (start !== undefined || end !== undefined) {
    const from = Date.parse(start ?? '');
    const to = Date.parse(end ?? '');
    if (statsPeriod !== undefined || Number.isNaN(from) || Number.isNaN(to) || from > to) {
      throw new BadRequestException({ detail: 'Give either statsPeriod, or start and end as ISO 8601 times with start before end.' });
    }
    return { start: new Date(from).toISOString(), end: new Date(to).toISOString() };
  }
  const until = new Date(now.getTime() + 1).toISOString();
  if (statsPeriod === undefined && options.unbounded) return { start: EPOCH, end: until };
  const match = PERIOD.exec(statsPeriod ?? DEFAULT_PERIOD);
  if (!match || Number(match[1]) === 0)
    throw new BadRequestException({ detail: `Invalid statsPeriod: ${statsPeriod}; use a number and s, m, h, d or w, such as 24h or 14d.` });
  // A period longer than there are dates (999999w) reaches back to the epoch, not past what a Date can hold.
  return { start: new Date(Math.max(0, now.getTime() - Number(match[1]) * PERIOD_MS[match[2]])).toISOString(), end: until };
}
