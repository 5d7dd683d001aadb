import { CronExpressionParser } from 'cron-parser';

/** Sentry's interval units (`schedule: [2, "hour"]`). */
export const INTERVAL_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export type Schedule =
  { readonly type: 'crontab'; readonly crontab: string } | { readonly type: 'interval'; readonly interval: number; readonly unit: IntervalUnit };

/** Sentry's nicknames (`NONSTANDARD_CRONTAB_SCHEDULES`), stored as the crontab they stand for. */
const NICKNAMES: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MINUTE_MS = 60_000;

/**
 * A crontab as Sentry keeps it: five fields (no seconds), nicknames spelled out. Answers the
 * crontab, or why it is refused.
 */
export function normalizeCrontab(input: string): { crontab: string } | { problem: string } {
  const trimmed = input.trim().replace(/\s+/g, ' ');
  const crontab = NICKNAMES[trimmed.toLowerCase()] ?? trimmed;
  if (crontab.split(' ').length !== 5) return { problem: 'Schedule must be a five-field crontab (minute hour day month weekday)' };
  try {
    CronExpressionParser.parse(crontab, { tz: 'UTC' });
  } catch (error) {
    return { problem: `Schedule was not parseable: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { crontab };
}

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * When the next run is expected after a check-in at `reference`, as Sentry's `get_next_schedule`:
 * the reference is clamped down to the minute (the finest granularity monitors support), a
 * crontab is read in the monitor's time zone, an interval counts from the clamped reference.
 */
export function nextScheduled(reference: Date, schedule: Schedule, timeZone: string): Date {
  const clamped = new Date(reference.getTime() - (reference.getTime() % MINUTE_MS));
  if (schedule.type === 'crontab') {
    return CronExpressionParser.parse(schedule.crontab, { currentDate: clamped, tz: timeZone }).next().toDate();
  }
  return addInterval(clamped, schedule.interval, schedule.unit);
}

/**
 * Minutes, hours, days and weeks are fixed lengths; months and years are calendar steps in UTC,
 * and a month too short for the day clamps to its last day (Jan 31 + 1 month is Feb 28 or 29).
 */
function addInterval(from: Date, interval: number, unit: IntervalUnit): Date {
  switch (unit) {
    case 'minute':
      return new Date(from.getTime() + interval * MINUTE_MS);
    case 'hour':
      return new Date(from.getTime() + interval * 60 * MINUTE_MS);
    case 'day':
      return new Date(from.getTime() + interval * 1440 * MINUTE_MS);
    case 'week':
      return new Date(from.getTime() + interval * 7 * 1440 * MINUTE_MS);
    case 'month':
    case 'year': {
      const months = unit === 'month' ? interval : interval * 12;
      const target = new Date(from.getTime());
      const day = target.getUTCDate();
      target.setUTCDate(1);
      target.setUTCMonth(target.getUTCMonth() + months);
      const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
      target.setUTCDate(Math.min(day, lastDay));
      return target;
    }
  }
}
