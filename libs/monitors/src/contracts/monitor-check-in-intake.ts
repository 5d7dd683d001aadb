/** One check-in as an SDK reported it: a `check_in` envelope item, or Sentry's HTTP check-in endpoint. */
export interface CheckInSubmission {
  readonly projectId: string;
  readonly organizationId: string;
  /** The item's JSON payload, unread (the monitors context owns its rules). */
  readonly payload: Buffer;
  /** ISO 8601 */
  readonly receivedAt: string;
}

/**
 * What became of a batch: kept (recorded, or a repeat that changes nothing), or dropped (invalid,
 * unknown monitor, over budget); `invalid` says why each invalid one was refused.
 */
export interface CheckInReceipt {
  readonly accepted: number;
  readonly dropped: number;
  readonly invalid: readonly string[];
}

/**
 * Records check-ins durably, each with its effects on its monitor (created or configured by
 * `monitor_config`), before the SDK is answered. A check-in sent again with the same id changes
 * nothing, so a retried envelope is harmless.
 */
export abstract class MonitorCheckInIntake {
  abstract record(checkIns: readonly CheckInSubmission[]): Promise<CheckInReceipt>;
}
