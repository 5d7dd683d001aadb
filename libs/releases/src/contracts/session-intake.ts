/** What one session item (an update or an aggregate bucket) adds to its release's health. */
export interface SessionInput {
  readonly organizationId: string;
  readonly projectId: string;
  readonly release: string;
  /** Null when the SDK sent none. */
  readonly environment: string | null;
  /** ISO time the session started: its hour is the bucket it is counted in. */
  readonly started: string;
  /** The user (`did`), counted once per hour for crash-free users. */
  readonly distinctId: string | null;
  /** Set for a single session's update: its errors count once per session id. */
  readonly sessionId: string | null;
  /** Sessions started (Relay's `init` count). */
  readonly total: number;
  /** Errored sessions, crashed and abnormal ones among them. */
  readonly errored: number;
  readonly abnormal: number;
  readonly crashed: number;
}

/**
 * Release health: ingest hands over the sessions an SDK sent, at admission, and they are kept
 * (folded into hourly counts) before the SDK is answered, so a session answered 200 survives a crash.
 */
export abstract class SessionIntake {
  abstract record(sessions: readonly SessionInput[]): Promise<void>;
}
