import type { Transaction } from '@faultline/platform';

/** One processed SDK error event, as the ingest context hands it to the issues context. */
export interface IngestedEvent {
  readonly projectId: string;
  readonly projectSlug: string;
  readonly organizationId: string;
  readonly eventId: string;
  readonly fingerprintHash: string;
  /** Sentry's issue type of a new issue: `error` unless another context raised it (an occurrence). */
  readonly issueType?: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: string;
  readonly platform: string;
  /** ISO 8601 */
  readonly occurredAt: string;
  readonly receivedAt: string;
  /** Identifies the user who experienced the error (for the issue's user count), if known. */
  readonly userHash?: string;
  /** The release the event came from, if the SDK named one (regressions of issues resolved in a release). */
  readonly release?: string;
  /** What the event is counted under in the issue's tag values: the SDK's tags, level, environment, release, user and the tags derived from its fields. */
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** Some exception of the event was not handled (its mechanism says `handled: false`); false if absent. */
  readonly unhandled?: boolean;
  /** The normalised event, stored for the issue events API. */
  readonly data: Record<string, unknown>;
}

export interface RecordedIssueEvent {
  readonly projectId: string;
  readonly eventId: string;
  readonly issueId: string;
  readonly isNewIssue: boolean;
}

/**
 * Groups processed events into issues inside the caller's transaction (the ingest worker's batch),
 * so an event, its issue's transitions and the read models commit together.
 */
export abstract class IssueIngestion {
  abstract recordEvents(tx: Transaction, events: readonly IngestedEvent[]): Promise<RecordedIssueEvent[]>;
}
