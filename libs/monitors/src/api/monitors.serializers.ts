import type { CheckInRow, MonitorEnvironmentRow, MonitorRow } from '../infrastructure/monitors.repository';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export interface ProjectView {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly platform: string | null;
}

/** Sentry's MonitorEnvironmentSerializer. */
export function serializeMonitorEnvironment(environment: MonitorEnvironmentRow, monitor: MonitorRow) {
  return {
    name: environment.environment,
    status: environment.status,
    isMuted: environment.is_muted,
    dateCreated: iso(monitor.date_created),
    lastCheckIn: iso(environment.last_checkin),
    nextCheckIn: iso(environment.next_checkin),
    nextCheckInLatest: iso(environment.next_checkin_latest),
  };
}

/** Sentry's MonitorSerializer: the id is the monitor's UUID, environments newest check-in first. */
export function serializeMonitor(monitor: MonitorRow, environments: readonly MonitorEnvironmentRow[], project: ProjectView | undefined) {
  return {
    id: monitor.guid,
    status: monitor.status,
    isMuted: monitor.is_muted,
    isUpserting: false,
    type: 'cron_job',
    name: monitor.name,
    slug: monitor.slug,
    config: { ...monitor.config, alert_rule_id: null },
    dateCreated: iso(monitor.date_created),
    project: project ? { id: project.id, slug: project.slug, name: project.name, platform: project.platform } : null,
    environments: environments.map((environment) => serializeMonitorEnvironment(environment, monitor)),
    owner: null,
  };
}

/** Sentry's MonitorCheckInSerializer: duration in milliseconds. */
export function serializeCheckIn(checkIn: CheckInRow) {
  return {
    id: checkIn.guid,
    environment: checkIn.environment,
    status: checkIn.status,
    duration: checkIn.duration,
    dateCreated: iso(checkIn.date_created),
    dateUpdated: iso(checkIn.date_updated),
    attachmentId: null,
    expectedTime: iso(checkIn.expected_time),
    monitorConfig: checkIn.monitor_config ?? {},
  };
}
