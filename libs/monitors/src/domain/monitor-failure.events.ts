import { type DomainEvent, domainEvent } from '@faultline/kernel';

/**
 * Published for each failure occurrence stored in a monitor's issue, with the fields of an
 * error event's fact (`ingest.ErrorEventProcessed`), so issue alert rules, mail and chat act on a
 * cron failure as on an error. One stream per occurrence makes the record idempotent.
 */
export const MonitorEventTypes = {
  MonitorFailureOccurred: 'monitors.MonitorFailureOccurred',
} as const;

export const MONITOR_FAILURE_STREAM_TYPE = 'monitor-failure';
export const monitorFailureStream = (projectId: string, eventId: string): string => `monitor-failure-${projectId}-${eventId}`;

export type MonitorFailureOccurredData = {
  readonly projectId: string;
  readonly projectSlug: string;
  readonly organizationId: string;
  readonly issueId: string;
  readonly isNewIssue: boolean;
  readonly eventId: string;
  readonly title: string;
  readonly culprit: string;
  readonly message: string;
  readonly level: string;
  readonly platform: string;
  /** ISO 8601 */
  readonly datetime: string;
  readonly release: null;
  readonly environment: string;
  readonly tags: Array<[string, string]>;
  readonly user: null;
  readonly monitorSlug: string;
};

export type MonitorFailureOccurred = DomainEvent<(typeof MonitorEventTypes)['MonitorFailureOccurred'], MonitorFailureOccurredData>;

export const monitorFailureOccurred = (data: MonitorFailureOccurredData): MonitorFailureOccurred =>
  domainEvent(MonitorEventTypes.MonitorFailureOccurred, { ...data });
