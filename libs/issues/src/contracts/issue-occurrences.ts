import type { Transaction } from '@faultline/platform';

/**
 * Issue types other contexts raise (Sentry's issue platform types), with their category as
 * Sentry's group serializer shows it (`issueType`, `issueCategory`).
 */
export const OCCURRENCE_ISSUE_TYPES = { monitor_check_in_failure: 'cron' } as const;
export type OccurrenceIssueType = keyof typeof OCCURRENCE_ISSUE_TYPES;

/**
 * Something another context detected that is an issue of its own type, as Sentry's issue
 * platform takes an occurrence: grouped by the type and a key the detector chooses (a monitor
 * environment), one stored event per occurrence.
 */
export interface IssueOccurrence {
  readonly projectId: string;
  readonly projectSlug: string;
  readonly organizationId: string;
  readonly issueType: OccurrenceIssueType;
  readonly groupKey: string;
  /** 32 hex digits, new per occurrence. */
  readonly eventId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: 'error' | 'warning' | 'info';
  readonly environment: string;
  /** ISO 8601 */
  readonly occurredAt: string;
  readonly receivedAt: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** Sentry's event `contexts` (the monitor's, for a cron failure). */
  readonly contexts: Record<string, Record<string, unknown>>;
}

/** Where an occurrence went. */
export interface RecordedOccurrence {
  readonly issueId: string;
  readonly isNewIssue: boolean;
}

/**
 * Opens (or adds to, or brings back) the issue of an occurrence group, and resolves it when the
 * detector sees the problem gone, in the caller's transaction.
 */
export abstract class IssueOccurrences {
  /** Null when the occurrence's event id was stored before (a repeat). */
  abstract record(tx: Transaction, occurrence: IssueOccurrence): Promise<RecordedOccurrence | null>;
  /** Resolves the group's issue if it is not resolved; answers its id, or null when there is none. */
  abstract resolve(tx: Transaction, projectId: string, issueType: OccurrenceIssueType, groupKey: string, at: string): Promise<string | null>;
}
