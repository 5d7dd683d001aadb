import { type DomainEvent, domainEvent } from '@faultline/kernel';
import type { RunOutcome } from './check-in';

/**
 * A monitor environment's status history, on `monitor-environment-<id>`. Only what changes its
 * state is recorded: a healthy monitor checking in on time appends nothing.
 */
export const MonitorEnvironmentEventTypes = {
  MonitorEnvironmentCreated: 'monitors.MonitorEnvironmentCreated',
  RunCounted: 'monitors.RunCounted',
  MonitorEnvironmentFailed: 'monitors.MonitorEnvironmentFailed',
  MonitorEnvironmentRecovered: 'monitors.MonitorEnvironmentRecovered',
  MonitorEnvironmentMuted: 'monitors.MonitorEnvironmentMuted',
  MonitorEnvironmentUnmuted: 'monitors.MonitorEnvironmentUnmuted',
} as const;

export const MONITOR_ENVIRONMENT_STREAM_TYPE = 'monitor-environment';
export const monitorEnvironmentStream = (id: string): string => `monitor-environment-${id}`;

type Base = {
  readonly monitorEnvironmentId: string;
  /** ISO 8601: the run's time (a missed run's expected time), or the mute's. */
  readonly at: string;
};
type Run = Base & { readonly checkInId: string; readonly outcome: RunOutcome };

export type MonitorEnvironmentCreatedData = Base & { readonly monitorId: string; readonly environment: string };
export type RunCountedData = Run;
export type MonitorEnvironmentFailedData = Run & { readonly failedRuns: number };
export type MonitorEnvironmentRecoveredData = Run & { readonly recoveredRuns: number };

type T = typeof MonitorEnvironmentEventTypes;
export type MonitorEnvironmentCreated = DomainEvent<T['MonitorEnvironmentCreated'], MonitorEnvironmentCreatedData>;
export type RunCounted = DomainEvent<T['RunCounted'], RunCountedData>;
export type MonitorEnvironmentFailed = DomainEvent<T['MonitorEnvironmentFailed'], MonitorEnvironmentFailedData>;
export type MonitorEnvironmentRecovered = DomainEvent<T['MonitorEnvironmentRecovered'], MonitorEnvironmentRecoveredData>;
export type MonitorEnvironmentMuted = DomainEvent<T['MonitorEnvironmentMuted'], Base>;
export type MonitorEnvironmentUnmuted = DomainEvent<T['MonitorEnvironmentUnmuted'], Base>;
export type MonitorEnvironmentEvent =
  MonitorEnvironmentCreated | RunCounted | MonitorEnvironmentFailed | MonitorEnvironmentRecovered | MonitorEnvironmentMuted | MonitorEnvironmentUnmuted;

const E = MonitorEnvironmentEventTypes;
export const monitorEnvironmentCreated = (data: MonitorEnvironmentCreatedData): MonitorEnvironmentCreated =>
  domainEvent(E.MonitorEnvironmentCreated, { ...data });
export const runCounted = (data: RunCountedData): RunCounted => domainEvent(E.RunCounted, { ...data });
export const monitorEnvironmentFailed = (data: MonitorEnvironmentFailedData): MonitorEnvironmentFailed => domainEvent(E.MonitorEnvironmentFailed, { ...data });
export const monitorEnvironmentRecovered = (data: MonitorEnvironmentRecoveredData): MonitorEnvironmentRecovered =>
  domainEvent(E.MonitorEnvironmentRecovered, { ...data });
export const monitorEnvironmentMuted = (data: Base): MonitorEnvironmentMuted => domainEvent(E.MonitorEnvironmentMuted, { ...data });
export const monitorEnvironmentUnmuted = (data: Base): MonitorEnvironmentUnmuted => domainEvent(E.MonitorEnvironmentUnmuted, { ...data });
