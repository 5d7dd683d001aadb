import { Injectable } from '@nestjs/common';
import type { Sql, Transaction } from '@faultline/platform';
import { SENTRY_APP_TARGET } from '../domain';
import { DeliveriesRepository, type NewDelivery, type RequestLogFilter, type RequestLogRow } from './deliveries.repository';
import { DeliveryWorker } from './delivery.worker';

export { SENTRY_APP_TARGET };

export interface WebhookTarget {
  readonly kind: typeof SENTRY_APP_TARGET;
  readonly id: string;
  readonly url: string;
  /** HMAC key of the signature header. */
  readonly secret: string;
  /** Extra headers for every request, each "Name: value" (they never replace the engine's own). */
  readonly headers?: readonly string[];
}

export type QueuedDelivery = Omit<NewDelivery, 'targetKind'> & { readonly targetKind: typeof SENTRY_APP_TARGET };

/**
 * How other contexts use the delivery engine: register a receiver (url and signing secret) under
 * their own id, queue deliveries to it inside the transaction of their cause, and read what was
 * sent. The engine looks a target up when it sends, so a changed URL or secret applies to queued
 * deliveries too.
 */
@Injectable()
export class WebhookTargets {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {}

  async register(sql: Sql, target: WebhookTarget): Promise<void> {
    await sql.execute(
      `INSERT INTO webhooks.webhook_app_targets (target_kind, target_id, url, secret, status, headers) VALUES ($1, $2, $3, $4, 'active', $5::text[])
       ON CONFLICT (target_kind, target_id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret, status = 'active', headers = EXCLUDED.headers`,
      [target.kind, target.id, target.url, target.secret, [...(target.headers ?? [])]],
    );
  }

  /** The target's pending deliveries fail with `reason`; its log stays. */
  async remove(sql: Sql, kind: typeof SENTRY_APP_TARGET, id: string, reason: string): Promise<void> {
    await sql.execute(`DELETE FROM webhooks.webhook_app_targets WHERE target_kind = $1 AND target_id = $2`, [kind, id]);
    await this.deliveries.failPending(sql, kind, [id], reason);
  }

  /** Queues in the caller's transaction (a repeated target, cause and event type is ignored) and wakes the worker after the commit. */
  async enqueue(tx: Transaction, deliveries: readonly QueuedDelivery[]): Promise<number> {
    const queued = await this.deliveries.insert(tx, deliveries);
    if (queued > 0) tx.afterCommit(() => this.worker.wake());
    return queued;
  }

  async requestLog(kind: typeof SENTRY_APP_TARGET, id: string, filter: RequestLogFilter): Promise<RequestLogRow[]> {
    return this.deliveries.requestLog(kind, id, filter);
  }
}
