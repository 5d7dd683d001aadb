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
 * Keeps user reports. Idempotent by project and report id: the same report sent again (an SDK
 * retry, a user correcting their report) replaces the first.
 */
export abstract class UserReportIntake {
  abstract record(reports: readonly UserReportInput[]): Promise<void>;
}
