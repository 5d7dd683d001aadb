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

/** What a kind with its own transport answers for one attempt; a thrown error is a failed attempt, retried. */
export interface SentAttempt {
  readonly outcome: AttemptOutcome;
  /** What the receiver answered (an SMTP reply, ...), for the delivery log. */
  readonly response?: string;
  /** What identifies the request (headers, envelope), for the delivery log. */
  readonly request?: Record<string, string>;
}

interface TargetKindPolicy<T extends DeliveryTarget> {
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
  /**
   * Told, after they are recorded, how the attempts that reached a receiver ended (in the order
   * they finished), so the kind may disable a receiver that keeps failing.
   */
  settled?(outcomes: readonly TargetAttemptOutcome[]): Promise<void>;
}

/** A kind whose deliveries the engine POSTs to the target's URL. */
export interface HttpDeliveryTargetKind<T extends DeliveryTarget = DeliveryTarget> extends TargetKindPolicy<T> {
  /** The request headers, signature included, for one attempt at `at`. */
  headers(delivery: OutgoingDelivery, target: T, at: Date): Record<string, string>;
  /** What an answer means: delivered, retried, or final. */
  classify(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome;
  send?: never;
}

/** A kind that brings its own transport (mail, ...): the engine still claims, retries and logs its deliveries. */
export interface TransportDeliveryTargetKind<T extends DeliveryTarget = DeliveryTarget> extends TargetKindPolicy<T> {
  /** One attempt, to be given up when `signal` aborts (the kind's time-out). */
  send(delivery: OutgoingDelivery, target: T, signal: AbortSignal): Promise<SentAttempt>;
}

/**
 * A kind of receiver (service hooks, service apps, mail, ...) and its delivery policy. Its owner
 * registers it with `DeliveryTargetKindRegistry` when its module starts; the engine sends each delivery
 * as the delivery's kind says and names no kind itself.
 */
export type DeliveryTargetKind<T extends DeliveryTarget = DeliveryTarget> = HttpDeliveryTargetKind<T> | TransportDeliveryTargetKind<T>;
