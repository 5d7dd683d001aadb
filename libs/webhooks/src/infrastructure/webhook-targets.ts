import { Injectable } from '@nestjs/common';
import type { Sql, Transaction } from '@faultline/platform';
import { type DeliveryState, type QueuedDelivery, type RequestLogFilter, type RequestLogRow, WebhookTargets } from '../contracts/webhook-targets';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryWorker } from './delivery.worker';

/** The delivery engine as other contexts use it: the deliveries table, and the worker woken after a commit. */
@Injectable()
export class WebhookTargetsService extends WebhookTargets {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {
    super();
  }

  /** The target's pending deliveries fail with `reason`; its log stays. */
  async remove(sql: Sql, kind: string, id: string, reason: string): Promise<void> {
    await this.deliveries.failPending(sql, kind, [id], reason);
  }

  /** Queues in the caller's transaction (a repeated target, cause and event type is ignored) and wakes the worker after the commit. */
  async enqueue(tx: Transaction, deliveries: readonly QueuedDelivery[]): Promise<number> {
    const queued = await this.deliveries.insert(tx, deliveries);
    if (queued > 0) tx.afterCommit(() => this.worker.wake());
    return queued;
  }

  /** Which of these guids were queued (a repeated cause is not). */
  async queuedGuids(sql: Sql, guids: readonly string[]): Promise<string[]> {
    return this.deliveries.existing(sql, guids);
  }

  /** Where these deliveries of a kind stand now. */
  async states(kind: string, guids: readonly string[]): Promise<DeliveryState[]> {
    return this.deliveries.states(kind, guids);
  }

  async requestLog(kind: string, id: string, filter: RequestLogFilter): Promise<RequestLogRow[]> {
    return this.deliveries.requestLog(kind, id, filter);
  }
}
