import type { Transaction } from '@faultline/platform';
import type { EventPayloadSource, ServiceHookEvent } from '../domain';

/** One error event to announce to a project's hooks. */
export interface HookNotice {
  /** Identifies the occurrence (an event-store event id, an alert fire), so it is queued once per hook. */
  readonly cause: string;
  readonly projectId: string;
  readonly source: Omit<EventPayloadSource, 'projectSlug' | 'projectName'>;
  readonly triggeringRules?: readonly string[];
}

/**
 * Queues service-hook deliveries inside the transaction of what causes them, so an event is
 * announced exactly when it commits, and wakes the delivery engine after the commit.
 */
export abstract class ServiceHookOutbox {
  /** Queues `eventType` for the subscribed hooks of each notice's project; answers how many deliveries were queued. */
  abstract enqueue(tx: Transaction, eventType: ServiceHookEvent, notices: readonly HookNotice[]): Promise<number>;
}
