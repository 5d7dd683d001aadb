import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database, Metrics, QueueVacuum } from '@faultline/platform';
import { Counter, Gauge, Histogram } from 'prom-client';
import {
  classifyResponse,
  nextAttemptDelaySeconds,
  SENTRY_APP_TARGET,
  SERVICE_HOOK_STREAM_TYPE,
  serviceHookDisabled,
  serviceHookStream,
  signBody,
  standardWebhookSignature,
} from '../domain';
import { type AttemptResult, type ClaimedDelivery, DeliveriesRepository } from './deliveries.repository';
import { describeError, OutboundHttp } from './outbound-http';
import { SERVICE_HOOK_TARGET, ServiceHooksRepository } from './service-hooks.repository';

const IDLE_POLL_MS = 500;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5000;
/** Beyond the request deadline, time to record the attempt before another worker may take it again. */
const LEASE_MARGIN_SECONDS = 10;
const FLUSH_DELAY_MS = 5;
const HEALTH_RECHECK_MS = 60_000;
/** Finished attempts between vacuum passes of the delivery queue (each attempt leaves two dead rows). */
const VACUUM_EVERY_ATTEMPTS = 10_000;

interface Target {
  kind: string;
  id: string;
  url: string;
  secret: string;
  status: string;
  headers: readonly string[];
}

/**
 * The delivery process: claims due deliveries (any number of processes share the table through
 * row locks), signs and sends each over the exact bytes stored, and records every attempt.
 * Finished attempts are written together, one statement per group, like the ingest queue.
 */
@Injectable()
export class DeliveryWorker implements BackgroundWorker {
  readonly name = 'webhooks.delivery';
  private readonly logger = new Logger('WebhookDelivery');
  private readonly attemptsTotal: Counter<'outcome'>;
  private readonly attemptDuration: Histogram;
  private readonly http: OutboundHttp;
  /** Service apps get a shorter deadline (Sentry's is one second). */
  private readonly appHttp: OutboundHttp;
  private readonly inFlightByTarget = new Map<string, number>();
  /** Claimed (ready or in flight) per target. */
  private readonly claimedByTarget = new Map<string, number>();
  /** Claimed and not yet sent, in claim order. */
  private readonly ready: ClaimedDelivery[] = [];
  private inFlight = 0;
  private readonly loop = new PollingLoop({
    // Again at once while claims find work and there is room for more.
    runOnce: async () => {
      const claimed = await this.claim();
      this.dispatch();
      if (Date.now() - this.lastPrune > PRUNE_INTERVAL_MS) await this.prune();
      return claimed > 0 && this.claimedCount() <= this.config.webhooks.concurrency;
    },
    idleDelayMs: IDLE_POLL_MS,
    onError: (error) => this.logger.error(`claiming deliveries failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  /** Resolves stop() once the last request in flight has finished. */
  private onIdle?: () => void;
  private pendingResults: AttemptResult[] = [];
  private settled: Array<{ hookId: string; ok: boolean; gone?: string }> = [];
  private flushing?: Promise<void>;
  private lastPrune = 0;
  /** When this process last cleared each hook's failing_since (another process may have set it since). */
  private readonly clearedAt = new Map<string, number>();
  private readonly vacuum: QueueVacuum;

  constructor(
    private readonly database: Database,
    private readonly deliveries: DeliveriesRepository,
    private readonly hooks: ServiceHooksRepository,
    private readonly recorder: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    metrics: Metrics,
  ) {
    this.http = new OutboundHttp(config.webhooks, config.webhooks.timeoutMs);
    this.appHttp = new OutboundHttp(config.webhooks, config.webhooks.appTimeoutMs);
    this.vacuum = new QueueVacuum(database, ['webhooks.webhook_delivery_queue'], VACUUM_EVERY_ATTEMPTS, (error) =>
      this.logger.warn(`vacuuming the delivery queue failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    const registers = [metrics.registry];
    this.attemptsTotal = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retry, failed)',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const inFlight = () => this.inFlight;
    new Gauge({
      name: 'webhook_deliveries_in_flight',
      help: 'Webhook requests in flight in this process',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    // Ready deliveries are not sent: handed back, so any worker takes them again at once.
    const unsent = this.ready.splice(0).map((delivery) => delivery.id);
    await this.deliveries.release(unsent).catch((error: unknown) => {
      this.logger.warn(`handing back ${unsent.length} deliveries failed (their lease will end): ${error instanceof Error ? error.message : String(error)}`);
    });
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.onIdle = resolve));
    await this.flush();
    await this.vacuum.settled();
    await Promise.all([this.http.close(), this.appHttp.close()]);
  }

  wake(): void {
    this.loop.wake();
  }

  private claimedCount(): number {
    return this.inFlight + this.ready.length;
  }

  /**
   * Claims ahead: up to twice the concurrency is held (in flight plus ready), and a claim is made
   * once half of that is free, so requests never wait for a claim's round trip and claims come
   * in large groups. Per target at most twice its cap is held, so ready deliveries wait at most
   * one request time-out before going out; the lease covers that wait and the request.
   */
  private async claim(): Promise<number> {
    const { concurrency, targetConcurrency, timeoutMs } = this.config.webhooks;
    const room = 2 * concurrency - this.claimedCount();
    if (room < concurrency) return 0;
    const held = [...this.claimedByTarget];
    const leaseSeconds = 2 * Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
    const claimed = await this.deliveries.claim(room, held.map(([id]) => id), held.map(([, n]) => n), 2 * targetConcurrency, leaseSeconds);
    for (const delivery of claimed) {
      this.ready.push(delivery);
      this.claimedByTarget.set(delivery.target_id, (this.claimedByTarget.get(delivery.target_id) ?? 0) + 1);
    }
    return claimed.length;
  }

  /** Starts ready deliveries while there is room, overall and for their target. */
  private dispatch(): void {
    const { concurrency, targetConcurrency } = this.config.webhooks;
    for (let index = 0; index < this.ready.length && this.inFlight < concurrency; ) {
      const delivery = this.ready[index];
      if ((this.inFlightByTarget.get(delivery.target_id) ?? 0) >= targetConcurrency) {
        index++;
        continue;
      }
      this.ready.splice(index, 1);
      this.send(delivery);
    }
  }

  private send(delivery: ClaimedDelivery): void {
    const target = delivery.target_url === null
      ? undefined
      : { kind: delivery.target_kind, id: delivery.target_id, url: delivery.target_url, secret: delivery.target_secret as string, status: delivery.target_status as string, headers: delivery.target_headers ?? [] };
    this.inFlight++;
    this.inFlightByTarget.set(delivery.target_id, (this.inFlightByTarget.get(delivery.target_id) ?? 0) + 1);
    void this.attempt(delivery, target).finally(() => {
      this.inFlight--;
      decrement(this.inFlightByTarget, delivery.target_id);
      decrement(this.claimedByTarget, delivery.target_id);
      if (this.inFlight === 0) this.onIdle?.();
      this.dispatch();
      if (this.claimedCount() <= this.config.webhooks.concurrency) this.wake();
    });
  }

  private async attempt(delivery: ClaimedDelivery, target: Target | undefined): Promise<void> {
    const attemptedAt = new Date();
    if (!target || target.status !== 'active') {
      this.record({
        deliveryId: delivery.id, status: 'failed', attemptedAt, durationMs: 0, statusCode: null,
        error: target ? 'the hook is disabled' : delivery.target_kind === SERVICE_HOOK_TARGET ? 'the hook was deleted' : 'the receiver was removed', requestHeaders: {}, responseHeaders: null, responseBody: null,
      });
      return;
    }
    const isApp = target.kind === SENTRY_APP_TARGET;
    const headers = isApp ? this.appHeaders(delivery, target, attemptedAt) : this.headers(delivery, target, attemptedAt);
    const timeoutMs = isApp ? this.config.webhooks.appTimeoutMs : this.config.webhooks.timeoutMs;
    const started = performance.now();
    let result: AttemptResult;
    try {
      const response = await (isApp ? this.appHttp : this.http).post(target.url, headers, delivery.body);
      const outcome = classifyResponse(response.statusCode, response.headers['retry-after'], new Date(), isApp ? 'app' : 'hook');
      const base = {
        deliveryId: delivery.id, attemptedAt, durationMs: performance.now() - started, statusCode: response.statusCode,
        requestHeaders: headers, responseHeaders: response.headers, responseBody: response.body,
      };
      if (outcome.kind === 'delivered') {
        result = { ...base, status: 'delivered', error: null };
        if (!isApp) this.settled.push({ hookId: target.id, ok: true });
      } else if (outcome.kind === 'rejected') {
        result = { ...base, status: 'failed', error: outcome.reason };
      } else if (outcome.kind === 'target-gone') {
        result = { ...base, status: 'failed', error: outcome.reason };
        if (!isApp) this.settled.push({ hookId: target.id, ok: false, gone: outcome.reason });
      } else {
        const error = response.statusCode >= 300 && response.statusCode < 400 ? `redirect (${response.statusCode}) not followed` : `HTTP ${response.statusCode}`;
        result = { ...base, ...this.retry(delivery, error, outcome.kind === 'failed' ? outcome.retryAfterSeconds : undefined) };
        if (!isApp) this.settled.push({ hookId: target.id, ok: false });
      }
    } catch (error) {
      const { message, refused } = describeError(error, timeoutMs);
      if (refused) this.logger.warn(`delivery ${delivery.guid} to hook ${target.id}: ${message}`);
      result = {
        deliveryId: delivery.id, attemptedAt, durationMs: performance.now() - started, statusCode: null,
        requestHeaders: headers, responseHeaders: null, responseBody: null,
        ...this.retry(delivery, message, undefined),
      };
      if (!isApp) this.settled.push({ hookId: target.id, ok: false });
    }
    this.record(result);
  }

  private retry(delivery: ClaimedDelivery, error: string, retryAfterSeconds: number | undefined): Pick<AttemptResult, 'status' | 'nextAttemptAt' | 'error'> {
    const delay = nextAttemptDelaySeconds(delivery.attempts, this.config.webhooks.retryScheduleSeconds, retryAfterSeconds);
    if (delay === undefined) return { status: 'failed', error: `${error}; gave up after ${delivery.attempts} attempts` };
    return { status: 'pending', nextAttemptAt: new Date(Date.now() + delay * 1000), error };
  }

  private headers(delivery: ClaimedDelivery, target: Target, at: Date): Record<string, string> {
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

  /** Sentry's integration-platform request: its own header names, signed with the app's client secret. */
  private appHeaders(delivery: ClaimedDelivery, target: Target, at: Date): Record<string, string> {
    const brand = this.config.webhooks.headerBrand;
    return {
      ...customHeaders(target.headers),
      'Content-Type': 'application/json',
      'User-Agent': 'Faultline-Webhooks/1.0',
      'Request-ID': delivery.guid,
      [`${brand}-Hook-Resource`]: delivery.event_type.split('.')[0],
      [`${brand}-Hook-Timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${brand}-Hook-Signature`]: signBody(target.secret, delivery.body),
    };
  }

  private record(result: AttemptResult): void {
    this.attemptsTotal.inc({ outcome: result.status === 'pending' ? 'retry' : result.status });
    this.attemptDuration.observe(result.durationMs / 1000);
    this.pendingResults.push(result);
    if (this.flushing) return;
    // A short pause gathers the attempts finishing meanwhile into the same statement.
    this.flushing = new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS))
      .then(() => this.flush())
      .finally(() => (this.flushing = undefined));
  }

  /** Writes finished attempts, one statement for all that finished meanwhile, until none are left. */
  private async flush(): Promise<void> {
    while (this.pendingResults.length > 0) {
      const results = this.pendingResults;
      const settled = this.settled;
      this.pendingResults = [];
      this.settled = [];
      try {
        await this.deliveries.complete(results);
        this.vacuum.count(results.length);
        await this.updateTargetHealth(settled);
      } catch (error) {
        // The deliveries stay claimed until their lease ends, then go out again: at least once.
        this.logger.error(`recording ${results.length} attempts failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private async updateTargetHealth(settled: Array<{ hookId: string; ok: boolean; gone?: string }>): Promise<void> {
    if (settled.length === 0) return;
    const lastByHook = new Map(settled.map((entry) => [entry.hookId, entry]));
    const succeeded = [...lastByHook.values()].filter((entry) => entry.ok).map((entry) => entry.hookId);
    const failed = [...lastByHook.values()].filter((entry) => !entry.ok && !entry.gone).map((entry) => entry.hookId);
    // Clearing failing_since costs a statement: once a minute per healthy hook is enough.
    const now = Date.now();
    const toClear = succeeded.filter((id) => now - (this.clearedAt.get(id) ?? 0) > HEALTH_RECHECK_MS);
    await this.hooks.recordSuccess(this.database, toClear);
    for (const id of toClear) this.clearedAt.set(id, now);
    for (const id of failed) this.clearedAt.delete(id);
    const toDisable: Array<{ hookId: string; reason: string }> = [];
    for (const hookId of await this.hooks.recordFailure(this.database, failed, this.config.webhooks.disableAfterMs)) {
      toDisable.push({ hookId, reason: `every delivery failed for ${Math.round(this.config.webhooks.disableAfterMs / 3_600_000)} hours` });
    }
    for (const entry of lastByHook.values()) if (entry.gone) toDisable.push({ hookId: entry.hookId, reason: entry.gone });
    for (const { hookId, reason } of toDisable) {
      // The hook's state, the fact and its pending deliveries change together.
      const disabled = await this.database.transaction(async (tx) => {
        if (!(await this.hooks.disable(tx, hookId, reason))) return false;
        await this.recorder.record(tx, serviceHookStream(hookId), SERVICE_HOOK_STREAM_TYPE, [serviceHookDisabled({ hookId, reason })]);
        await this.deliveries.failPending(tx, SERVICE_HOOK_TARGET, [hookId], `the hook was disabled: ${reason}`);
        return true;
      });
      if (disabled) this.logger.warn(`service hook ${hookId} disabled: ${reason}`);
    }
  }

  private async prune(): Promise<void> {
    this.lastPrune = Date.now();
    const before = new Date(Date.now() - this.config.webhooks.attemptRetentionDays * 86_400_000);
    while ((await this.deliveries.prune(before, PRUNE_BATCH)) >= PRUNE_BATCH && this.loop.running);
  }
}

/** "Name: value" entries as headers; malformed entries are skipped (they were validated when saved). */
function customHeaders(entries: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf(':');
    if (separator > 0) headers[entry.slice(0, separator).trim()] = entry.slice(separator + 1).trim();
  }
  return headers;
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
