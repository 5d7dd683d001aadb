import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EventRecorder } from '@faultline/event-store';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import type { DeliveryTarget, HttpDeliveryTargetKind, OutgoingDelivery, TargetAttemptOutcome } from '../contracts/delivery-target-kind';
import {
  type AttemptOutcome,
  classifyResponse,
  SERVICE_HOOK_STREAM_TYPE,
  serviceHookDisabled,
  serviceHookStream,
  signBody,
  standardWebhookSignature,
} from '../domain';
import { DeliveriesRepository } from './deliveries.repository';
import { SERVICE_HOOK_TARGET, ServiceHooksRepository } from './service-hooks.repository';

/** Clearing a hook's failing_since costs a statement: once a minute per healthy hook is enough. */
const HEALTH_RECHECK_MS = 60_000;
const REMEMBERED_HOOKS = 10_000;

/**
 * Project service hooks as a delivery target: Sentry's service-hook headers and the Standard
 * Webhooks ones, every failure but 410 Gone retried, and a hook that answers 410 or fails for
 * `WEBHOOK_DISABLE_AFTER_HOURS` disabled.
 */
@Injectable()
export class ServiceHookTargetKind implements HttpDeliveryTargetKind {
  readonly name = SERVICE_HOOK_TARGET;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly removedReason = 'the hook was deleted';
  private readonly logger = new Logger('WebhookDelivery');
  /** The hooks whose failing_since this process cleared in the last minute (another process may have set it since). */
  private readonly recentlyCleared = new LRUCache<string, true>({ max: REMEMBERED_HOOKS, ttl: HEALTH_RECHECK_MS });

  constructor(
    private readonly database: Database,
    private readonly hooks: ServiceHooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly recorder: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.timeoutMs = config.webhooks.timeoutMs;
    this.retryScheduleSeconds = config.webhooks.retryScheduleSeconds;
  }

  async resolve(hookIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryTarget>> {
    const rows = await this.hooks.targets(this.database, hookIds);
    return new Map(rows.map((row) => [row.id, { id: row.id, url: row.url, secret: row.secret, active: row.status === 'active' }]));
  }

  headers(delivery: OutgoingDelivery, target: DeliveryTarget, at: Date): Record<string, string> {
    const timestamp = Math.floor(at.getTime() / 1000);
    const signature = signBody(target.secret, delivery.body);
    const messageId = `msg_${delivery.guid}`;
    return {
      'content-type': 'application/json',
      'user-agent': 'Faultline-Webhooks/1.0',
      [`x-${this.config.webhooks.headerBrand.toLowerCase()}-hook-signature`]: signature,
      'x-servicehook-signature': signature,
      'x-servicehook-timestamp': String(timestamp),
      'x-servicehook-guid': target.id,
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardWebhookSignature(target.secret, messageId, timestamp, delivery.body),
    };
  }

  classify(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
    return classifyResponse(statusCode, retryAfter, now);
  }

  /** A hook's last outcome decides: success clears its failing time, failure starts it, and a long failure or a 410 disables it. */
  async settled(outcomes: readonly TargetAttemptOutcome[]): Promise<void> {
    const lastByHook = new Map(outcomes.map((outcome) => [outcome.targetId, outcome]));
    const succeeded = [...lastByHook.values()].filter((outcome) => outcome.ok).map((outcome) => outcome.targetId);
    const failed = [...lastByHook.values()].filter((outcome) => !outcome.ok && !outcome.gone).map((outcome) => outcome.targetId);
    const toClear = succeeded.filter((id) => !this.recentlyCleared.has(id));
    await this.hooks.recordSuccess(this.database, toClear);
    for (const id of toClear) this.recentlyCleared.set(id, true);
    for (const id of failed) this.recentlyCleared.delete(id);
    const { disableAfterMs } = this.config.webhooks;
    const toDisable: Array<{ hookId: string; reason: string }> = [];
    for (const hookId of await this.hooks.recordFailure(this.database, failed, disableAfterMs)) {
      toDisable.push({ hookId, reason: `every delivery failed for ${Math.round(disableAfterMs / 3_600_000)} hours` });
    }
    for (const outcome of lastByHook.values()) if (outcome.gone) toDisable.push({ hookId: outcome.targetId, reason: outcome.gone });
    for (const { hookId, reason } of toDisable) await this.disable(hookId, reason);
  }

  /** The hook's state, the fact and its pending deliveries change together. */
  private async disable(hookId: string, reason: string): Promise<void> {
    const disabled = await this.database.transaction(async (tx) => {
      if (!(await this.hooks.disable(tx, hookId, reason))) return false;
      await this.recorder.record(tx, serviceHookStream(hookId), SERVICE_HOOK_STREAM_TYPE, [serviceHookDisabled({ hookId, reason })]);
      await this.deliveries.failPending(tx, SERVICE_HOOK_TARGET, [hookId], `the hook was disabled: ${reason}`);
      return true;
    });
    if (disabled) this.logger.warn(`service hook ${hookId} disabled: ${reason}`);
  }
}
