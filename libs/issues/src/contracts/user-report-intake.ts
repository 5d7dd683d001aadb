/** What a user wrote about an error: the SDK's `user_report` or `feedback` item, or the API's. */
export interface UserReportInput {
  readonly projectId: string;
  /** The report's own id: the event it is about for a legacy report, the feedback's event id for feedback. */
  readonly reportId: string;
  /** The error event the report is about, when it names one. */
  readonly eventId: string | null;
  readonly name: string;
  readonly email: string;
  readonly comments: string;
  /** ISO 8601 */
  readonly receivedAt: string;
}

/**
 * How long after a report first arrives the same report id may replace it (an SDK retry, a user
 * correcting their report); after that it never changes, so whoever holds a DSN cannot rewrite what
 * users wrote. Sentry's rule and window: `save_userreport` in `src/sentry/ingest/userreport.py`
 * refuses to update a report added more than 5 minutes ago ("Feedback for this event cannot be
 * modified.", to stop replay attacks).
 */
export const USER_REPORT_UPDATE_WINDOW_SECONDS = 5 * 60;

/**
 * Keeps user reports, by project and report id. A batch may name a report more than once: the last
 * one wins. Answers the report ids it refused to change (their first arrival is older than
 * USER_REPORT_UPDATE_WINDOW_SECONDS); the others are kept.
 */
export abstract class UserReportIntake {
  abstract record(reports: readonly UserReportInput[]): Promise<readonly string[]>;
}
