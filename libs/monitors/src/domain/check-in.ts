import { normalizeNonNilEventId, slugify } from '@faultline/kernel';
import { type MonitorConfig, marginMinutes, maxRuntimeMinutes, scheduleOfConfig, sdkMonitorConfig } from './monitor-config';
import { nextScheduled } from './schedule';

/** What an SDK may report; the sweep adds `missed` and `timeout`. */
export const REPORTED_STATUSES = ['in_progress', 'ok', 'error'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];
export type CheckInStatus = ReportedStatus | 'missed' | 'timeout';
/** How a run ended, as the monitor environment counts it. */
export type RunOutcome = 'ok' | 'error' | 'missed' | 'timeout';

/** Limits of a reported check-in, beside the rule that reads it (Relay's and Sentry's). */
export const CHECK_IN_LIMITS = {
  /** Relay truncates monitor slugs to Sentry's slug length. */
  maxSlugLength: 50,
  /** Sentry's environment names. */
  maxEnvironmentLength: 64,
  /** A run's reported duration, in seconds: 28 days, Sentry's longest max_runtime. */
  maxDurationSeconds: 40_320 * 60,
} as const;

/** Sentry's environment for check-ins that name none. */
export const DEFAULT_ENVIRONMENT = 'production';

export interface CheckInReport {
  /** 32 lowercase hex digits. */
  readonly checkInId: string;
  readonly monitorSlug: string;
  readonly status: ReportedStatus;
  /** Milliseconds, as Sentry stores them (SDKs send seconds). */
  readonly durationMs: number | null;
  readonly environment: string;
  /** Present when the SDK upserts the monitor (`monitor_config`). */
  readonly monitorConfig: MonitorConfig | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `check_in` item's payload (https://develop.sentry.dev/sdk/check-ins/), or why it is dropped. */
export function readCheckIn(payload: unknown): CheckInReport | { problem: string } {
  if (!isRecord(payload)) return { problem: 'check-in must be a JSON object' };
  const checkInId = normalizeNonNilEventId(payload.check_in_id);
  if (!checkInId) return { problem: 'check_in_id must be a UUID' };
  if (typeof payload.monitor_slug !== 'string' || payload.monitor_slug.trim() === '') return { problem: 'monitor_slug is required' };
  // As Relay normalises it: a slug, at most 50 characters.
  const monitorSlug = slugify(payload.monitor_slug).slice(0, CHECK_IN_LIMITS.maxSlugLength);
  if (!(REPORTED_STATUSES as readonly unknown[]).includes(payload.status)) return { problem: `status must be one of ${REPORTED_STATUSES.join(', ')}` };
  let durationMs: number | null = null;
  if (payload.duration !== undefined && payload.duration !== null) {
    if (
      typeof payload.duration !== 'number' ||
      !Number.isFinite(payload.duration) ||
      payload.duration < 0 ||
      payload.duration > CHECK_IN_LIMITS.maxDurationSeconds
    )
      return { problem: `duration must be a number of seconds between 0 and ${CHECK_IN_LIMITS.maxDurationSeconds}` };
    durationMs = Math.round(payload.duration * 1000);
  }
  const environment =
    payload.environment === undefined || payload.environment === null || payload.environment === '' ? DEFAULT_ENVIRONMENT : payload.environment;
  if (typeof environment !== 'string' || environment.length > CHECK_IN_LIMITS.maxEnvironmentLength || /[\n\r/]/.test(environment))
    return { problem: `environment must be a name of at most ${CHECK_IN_LIMITS.maxEnvironmentLength} characters without newlines or slashes` };
  let monitorConfig: MonitorConfig | null = null;
  if (payload.monitor_config !== undefined && payload.monitor_config !== null) {
    const checked = sdkMonitorConfig(payload.monitor_config);
    if ('problem' in checked) return { problem: `monitor_config: ${checked.problem}` };
    monitorConfig = checked.ok;
  }
  return { checkInId, monitorSlug, status: payload.status as ReportedStatus, durationMs, environment, monitorConfig };
}

/**
 * When the run after one starting at `startedAt` is expected, and the latest it may check in
 * before it counts as missed (the expected time plus the margin), as Sentry's
 * `get_next_expected_checkin` and `get_next_expected_checkin_latest`.
 */
export function nextExpected(startedAt: Date, config: MonitorConfig): { readonly next: Date; readonly latest: Date } {
  const next = nextScheduled(startedAt, scheduleOfConfig(config), config.timezone);
  return { next, latest: new Date(next.getTime() + marginMinutes(config) * 60_000) };
}

/** When a run still in progress times out: its start plus the monitor's max_runtime. */
export function timeoutAt(startedAt: Date, config: MonitorConfig): Date {
  return new Date(startedAt.getTime() + maxRuntimeMinutes(config) * 60_000);
}

/** A closing check-in with no duration of its own lasted from its in-progress check-in until now. */
export function runDurationMs(reported: number | null, startedAt: Date, closedAt: Date): number {
  return reported ?? Math.max(0, closedAt.getTime() - startedAt.getTime());
}
