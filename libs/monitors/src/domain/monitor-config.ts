import { INTERVAL_UNITS, type IntervalUnit, isTimeZone, normalizeCrontab, type Schedule } from './schedule';

/**
 * A monitor's configuration as Sentry's API shows it (`config` of a monitor): the schedule, how
 * late a check-in may be (minutes), how long a run may take (minutes), the schedule's time zone,
 * and how many failed (recovered) runs in a row open (resolve) its issue.
 */
export interface MonitorConfig {
  readonly schedule_type: 'crontab' | 'interval';
  readonly schedule: string | readonly [number, IntervalUnit];
  readonly checkin_margin: number | null;
  readonly max_runtime: number | null;
  readonly timezone: string;
  readonly failure_issue_threshold: number | null;
  readonly recovery_threshold: number | null;
}

/** Sentry's limits (`src/sentry/monitors/constants.py` and validators), declared beside the rule. */
export const MONITOR_CONFIG_LIMITS = {
  /** Minutes: 28 days (`MAX_MARGIN`, `MAX_TIMEOUT`). */
  maxMarginMinutes: 40_320,
  maxRuntimeMinutes: 40_320,
  /** `DEFAULT_CHECKIN_MARGIN`: a margin of 0 or none is one minute. */
  defaultMarginMinutes: 1,
  /** `TIMEOUT`: an in-progress run times out after 30 minutes unless configured. */
  defaultMaxRuntimeMinutes: 30,
  /** Consecutive failures or recoveries (`MAX_THRESHOLD`). */
  maxThreshold: 720,
  /** An interval of at most a year's worth of minutes, whatever its unit. */
  maxInterval: 525_600,
  maxCrontabLength: 100,
  maxTimeZoneLength: 64,
} as const;

export type ConfigCheck = { readonly ok: MonitorConfig } | { readonly problem: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalInteger(input: Record<string, unknown>, field: string, min: number, max: number): number | null | string {
  const value = input[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return `${field} must be an integer between ${min} and ${max}`;
  return value;
}

function scheduleOf(type: unknown, value: unknown, unit: unknown): { schedule: Schedule } | { problem: string } {
  if (type === 'crontab') {
    if (typeof value !== 'string' || value.length === 0 || value.length > MONITOR_CONFIG_LIMITS.maxCrontabLength)
      return { problem: `schedule must be a crontab of at most ${MONITOR_CONFIG_LIMITS.maxCrontabLength} characters` };
    const checked = normalizeCrontab(value);
    return 'problem' in checked ? checked : { schedule: { type: 'crontab', crontab: checked.crontab } };
  }
  if (type === 'interval') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MONITOR_CONFIG_LIMITS.maxInterval)
      return { problem: `schedule interval must be an integer between 1 and ${MONITOR_CONFIG_LIMITS.maxInterval}` };
    if (typeof unit !== 'string' || !(INTERVAL_UNITS as readonly string[]).includes(unit))
      return { problem: `schedule unit must be one of ${INTERVAL_UNITS.join(', ')}` };
    return { schedule: { type: 'interval', interval: value, unit: unit as IntervalUnit } };
  }
  return { problem: 'schedule_type must be "crontab" or "interval"' };
}

function withSchedule(input: Record<string, unknown>, schedule: Schedule): ConfigCheck {
  const limits = MONITOR_CONFIG_LIMITS;
  const margin = optionalInteger(input, 'checkin_margin', 0, limits.maxMarginMinutes);
  const runtime = optionalInteger(input, 'max_runtime', 1, limits.maxRuntimeMinutes);
  const failures = optionalInteger(input, 'failure_issue_threshold', 1, limits.maxThreshold);
  const recoveries = optionalInteger(input, 'recovery_threshold', 1, limits.maxThreshold);
  for (const checked of [margin, runtime, failures, recoveries]) if (typeof checked === 'string') return { problem: checked };
  const timezone = input.timezone ?? 'UTC';
  if (typeof timezone !== 'string' || timezone.length > limits.maxTimeZoneLength || !isTimeZone(timezone))
    return { problem: 'timezone must be an IANA time zone such as "Europe/Vienna"' };
  return {
    ok: {
      schedule_type: schedule.type,
      schedule: schedule.type === 'crontab' ? schedule.crontab : [schedule.interval, schedule.unit],
      checkin_margin: margin as number | null,
      max_runtime: runtime as number | null,
      timezone,
      failure_issue_threshold: failures as number | null,
      recovery_threshold: recoveries as number | null,
    },
  };
}

/** The API's `config` (`schedule_type`, `schedule` a crontab or `[n, unit]`, …). */
export function apiMonitorConfig(input: unknown): ConfigCheck {
  if (!isRecord(input)) return { problem: 'config must be an object' };
  const schedule = input.schedule;
  const type = input.schedule_type ?? (Array.isArray(schedule) ? 'interval' : 'crontab');
  const checked = Array.isArray(schedule) ? scheduleOf(type, schedule[0], schedule[1]) : scheduleOf(type, schedule, undefined);
  return 'problem' in checked ? checked : withSchedule(input, checked.schedule);
}

/** The SDKs' `monitor_config` of a check-in (`schedule: {type, value, unit?}`). */
export function sdkMonitorConfig(input: unknown): ConfigCheck {
  if (!isRecord(input)) return { problem: 'monitor_config must be an object' };
  if (!isRecord(input.schedule)) return { problem: 'monitor_config.schedule must be an object' };
  const checked = scheduleOf(input.schedule.type, input.schedule.value, input.schedule.unit);
  return 'problem' in checked ? checked : withSchedule(input, checked.schedule);
}

/** The configuration's schedule, as the schedule math takes it. */
export function scheduleOfConfig(config: MonitorConfig): Schedule {
  if (typeof config.schedule === 'string') return { type: 'crontab', crontab: config.schedule };
  return { type: 'interval', interval: config.schedule[0], unit: config.schedule[1] };
}

export const marginMinutes = (config: MonitorConfig): number => config.checkin_margin || MONITOR_CONFIG_LIMITS.defaultMarginMinutes;
export const maxRuntimeMinutes = (config: MonitorConfig): number => config.max_runtime ?? MONITOR_CONFIG_LIMITS.defaultMaxRuntimeMinutes;
export const failureThreshold = (config: MonitorConfig): number => config.failure_issue_threshold ?? 1;
export const recoveryThreshold = (config: MonitorConfig): number => config.recovery_threshold ?? 1;
