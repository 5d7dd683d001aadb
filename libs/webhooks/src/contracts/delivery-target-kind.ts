import type { AttemptOutcome } from '../domain/retry-policy';

/** Where one delivery goes, as its kind resolves it when the delivery is sent. */
export interface DeliveryTarget {
  readonly id: string;
  readonly url: string;
  /** HMAC key of the kind's signature headers. */
  readonly secret: string;
  /** A disabled target gets no requests: its deliveries fail. */
  readonly active: boolean;
}

/** What the engine sends: the stored body, exactly these bytes, under its delivery guid. */
export interface OutgoingDelivery {
  readonly guid: string;
  readonly eventType: string;
  readonly body: string;
}

/** How one attempt to a target ended, for kinds that keep their targets' health. */
export interface TargetAttemptOutcome {
  readonly targetId: string;
  readonly ok: boolean;
  /** Set when the target answered that it is gone (or its address is refused): it is not worth trying again. */
  readonly gone?: string;
}

/**
 * A kind of webhook receiver (service hooks, service apps, ...) and its delivery policy. Its owner
 * registers it with `DeliveryTargetKinds` when its module starts; the engine sends each delivery
 * as the delivery's kind says and names no kind itself.
 */
export interface DeliveryTargetKind<T extends DeliveryTarget = DeliveryTarget> {
  /** Stored with every delivery of this kind (`target_kind`): never change it. */
  readonly name: string;
  /** Deadline of one request. */
  readonly timeoutMs: number;
  /** Delays before each retry, in seconds; when used up, the delivery fails. */
  readonly retryScheduleSeconds: readonly number[];
  /** The failure recorded for a delivery whose target no longer exists. */
  readonly removedReason: string;
  /** The targets as they are now, by id, in one read for the whole batch; absent ones were removed. */
  resolve(targetIds: readonly string[]): Promise<ReadonlyMap<string, T>>;
  /** The request headers, signature included, for one attempt at `at`. */
  headers(delivery: OutgoingDelivery, target: T, at: Date): Record<string, string>;
  /** What an answer means: delivered, retried, or final. */
  classify(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome;
  /**
   * Told, after they are recorded, how the attempts that reached a receiver ended (in the order
   * they finished), so the kind may disable a receiver that keeps failing.
   */
  settled?(outcomes: readonly TargetAttemptOutcome[]): Promise<void>;
}
