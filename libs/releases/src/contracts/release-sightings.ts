import type { Sql } from '@faultline/platform';

/** An event the ingest path stored, as far as its release's counts care. */
export interface ReleaseEventSeen {
  organizationId: string;
  projectId: string;
  release: string;
  /** ISO time the event occurred. */
  occurredAt: string;
  isNewIssue: boolean;
}

/**
 * Releases named by events are created on first sight, as Sentry does, and their per-project
 * counts (events, new issues, first and last event) kept, in the transaction of the ingest batch
 * that stored the events.
 */
export abstract class ReleaseSightings {
  abstract record(tx: Sql, events: readonly ReleaseEventSeen[]): Promise<void>;
}
