import type { Sql, Transaction } from '@faultline/platform';

/** One delivery to queue for a target of a registered kind. */
export interface QueuedDelivery {
  readonly guid: string;
  readonly targetKind: string;
  readonly targetId: string;
  /** What caused it (an event-store event id, an alert fire): one delivery per target and cause. */
  readonly cause: string;
  readonly eventType: string;
  /** Serialised once; the signature covers exactly these bytes. */
  readonly body: string;
}

/** Where one delivery stands. */
export interface DeliveryState {
  guid: string;
  status: string;
  attempts: number;
  last_error: string | null;
  finished_at: Date | null;
}

/** One request of a target's request log: an attempt and its delivery. */
export interface RequestLogRow {
  guid: string;
  event_type: string;
  status: string;
  /** The whole body: callers pick what they need from it and cut what they show. */
  body: string;
  created_at: Date;
  attempted_at: Date | null;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

export interface RequestLogFilter {
  /** The event types to show. */
  readonly eventTypes: readonly string[];
  /** Only requests that failed (no 2xx answer). */
  readonly errorsOnly?: boolean;
  readonly start?: Date;
  readonly end?: Date;
  /** The newest this many per event type. */
  readonly perEventType: number;
}

/**
 * How other contexts use the delivery engine for the target kinds they registered
 * (`DeliveryTargetKindRegistry`): queue deliveries inside the transaction of their cause, fail a
 * removed target's pending ones, and read what was sent.
 */
export abstract class WebhookTargets {
  /** The target's pending deliveries fail with `reason`; its log stays. */
  abstract remove(sql: Sql, kind: string, id: string, reason: string): Promise<void>;
  /** Queues in the caller's transaction (a repeated target, cause and event type is ignored) and wakes the engine after the commit. */
  abstract enqueue(tx: Transaction, deliveries: readonly QueuedDelivery[]): Promise<number>;
  /** Which of these guids were queued (a repeated cause is not). */
  abstract queuedGuids(sql: Sql, guids: readonly string[]): Promise<string[]>;
  /** Where these deliveries of a kind stand now. */
  abstract states(kind: string, guids: readonly string[]): Promise<DeliveryState[]>;
  abstract requestLog(kind: string, id: string, filter: RequestLogFilter): Promise<RequestLogRow[]>;
}
