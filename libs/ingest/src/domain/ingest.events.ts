import { domainEvent } from '@faultline/kernel';

/**
 * Published for each SDK error event stored: what webhooks (`event.created`, `error.created`) and
 * modules need without reading the event store's neighbours. One stream per event makes the
 * record idempotent.
 */
export const IngestEventTypes = {
  ErrorEventProcessed: 'ingest.ErrorEventProcessed',
  SpikeProtectionActivated: 'ingest.SpikeProtectionActivated',
} as const;

export const ERROR_EVENT_STREAM_TYPE = 'error-event';
export const errorEventStream = (projectId: string, eventId: string): string => `error-event-${projectId}-${eventId}`;

export type ErrorEventProcessedData = {
  projectId: string;
  projectSlug: string;
  organizationId: string;
  issueId: string;
  isNewIssue: boolean;
  eventId: string;
  title: string;
  culprit: string;
  message: string;
  level: string;
  platform: string;
  /** ISO 8601 */
  datetime: string;
  release: string | null;
  environment: string;
  tags: Array<[string, string]>;
  /** The user as Sentry tags it (`id:42`, `email:jane@example.com`, …); absent when the event names none (and in events recorded before it was added). */
  user?: string | null;
};

export const errorEventProcessed = (data: ErrorEventProcessedData) => domainEvent(IngestEventTypes.ErrorEventProcessed, data);

/** An organization's stream of spikes: one event when each spike begins (its owners are told once). */
export const ORGANIZATION_SPIKES_STREAM_TYPE = 'organization-spikes';
export const organizationSpikesStream = (organizationId: string): string => `organization-spikes-${organizationId}`;

export type SpikeProtectionActivatedData = {
  organizationId: string;
  /** Errors per hour past which the hour is a spike. */
  threshold: number;
  /** ISO 8601 */
  startedAt: string;
  /** ISO 8601: errors are dropped until then (longer if the spike goes on). */
  limitedUntil: string;
};

export const spikeProtectionActivated = (data: SpikeProtectionActivatedData) => domainEvent(IngestEventTypes.SpikeProtectionActivated, data);
