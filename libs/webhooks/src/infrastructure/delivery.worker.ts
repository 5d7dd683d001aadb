import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database, describeError, Metrics, OutboundHttp, QueueVacuum } from '@faultline/platform';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { DeliveryTarget, DeliveryTargetKind, TargetAttemptOutcome } from '../contracts/delivery-target-kind';
import { type AttemptOutcome, nextAttemptDelaySeconds } from '../domain';
import { type AttemptResult, type ClaimedDelivery, DeliveriesRepository } from './deliveries.repository';
import { DeliveryTargetKinds } from './delivery-target-kinds';

const IDLE_POLL_MS = 500;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5000;
/** Beyond the request deadline, time to record the attempt before another worker may take it again. */
const LEASE_MARGIN_SECONDS = 10;

/** A claimed delivery may wait one request time-out behind others of its target, then take one. */
const leaseSeconds = (timeoutMs: number): number => 2 * Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
const FLUSH_DELAY_MS = 5;
/** Finished attempts between vacuum passes of the delivery queue (each attempt leaves two dead rows). */
const VACUUM_EVERY_ATTEMPTS = 10_000;

/** A claimed delivery with its kind's policy and its target as it is now (undefined: removed). */
interface ReadyDelivery {
  readonly delivery: ClaimedDelivery;
  readonly kind: DeliveryTargetKind;
  readonly target: DeliveryTarget | undefined;
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
  /** One client per request deadline: each kind sets its own. */
  private readonly clients = new Map<number, OutboundHttp>();
  private readonly inFlightByTarget = new Map<string, number>();
  /** Claimed (ready or in flight) per target. */
  private readonly claimedByTarget = new Map<string, number>();
  /** Claimed and not yet sent, in claim order. */
  private readonly ready: ReadyDelivery[] = [];
  private inFlight = 0;
  private readonly loop = new PollingLoop({
    // Again at once while claims find work and there is room for more.
    runOnce: async () => {
      const claimed = await this.claim();
      this.dispatch();
      if (this.clock.now().getTime() - this.lastPrune > PRUNE_INTERVAL_MS) await this.prune();
      return claimed > 0 && this.claimedCount() <= this.config.webhooks.concurrency;
    },
    idleDelayMs: IDLE_POLL_MS,
    onError: (error) => this.logger.error(`claiming deliveries failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  /** Resolves stop() once the last request in flight has finished. */
  private onIdle?: () => void;
  private pendingResults: AttemptResult[] = [];
  private settled: Array<{ kind: DeliveryTargetKind; outcome: TargetAttemptOutcome }> = [];
  private flushing?: Promise<void>;
  private lastPrune = 0;
  private readonly vacuum: QueueVacuum;

  constructor(
    private readonly database: Database,
    private readonly deliveries: DeliveriesRepository,
    private readonly kinds: DeliveryTargetKinds,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    metrics: Metrics,
  ) {
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
    const unsent = this.ready.splice(0).map((ready) => ready.delivery.id);
    await this.deliveries.release(unsent).catch((error: unknown) => {
      this.logger.warn(`handing back ${unsent.length} deliveries failed (their lease will end): ${error instanceof Error ? error.message : String(error)}`);
    });
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.onIdle = resolve));
    await this.flush();
    await this.vacuum.settled();
    await Promise.all([...this.clients.values()].map((client) => client.close()));
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
    const { concurrency, targetConcurrency } = this.config.webhooks;
    const room = 2 * concurrency - this.claimedCount();
    if (room < concurrency) return 0;
    const held = [...this.claimedByTarget];
    const leases = new Map(this.kinds.all().map((kind) => [kind.name, leaseSeconds(kind.timeoutMs)]));
    const claimed = await this.deliveries.claim(
      room,
      held.map(([id]) => id),
      held.map(([, n]) => n),
      2 * targetConcurrency,
      leases,
      leaseSeconds(this.longestTimeoutMs()),
    );
    for (const ready of await this.resolveTargets(claimed)) {
      this.ready.push(ready);
      this.claimedByTarget.set(ready.delivery.target_id, (this.claimedByTarget.get(ready.delivery.target_id) ?? 0) + 1);
    }
    return claimed.length;
  }

  /** A kind this process does not know is leased for the slowest known kind's request. */
  private longestTimeoutMs(): number {
    return Math.max(this.config.webhooks.timeoutMs, ...this.kinds.all().map((kind) => kind.timeoutMs));
  }

  /**
   * Each kind reads its claimed targets as they are now, one read per kind for the whole claim.
   * A delivery of a kind this process does not know stays leased, for a process that knows it.
   */
  private async resolveTargets(claimed: readonly ClaimedDelivery[]): Promise<ReadyDelivery[]> {
    const idsByKind = new Map<string, Set<string>>();
    for (const delivery of claimed) {
      const ids = idsByKind.get(delivery.target_kind) ?? new Set<string>();
      idsByKind.set(delivery.target_kind, ids.add(delivery.target_id));
    }
    const resolved = new Map(
      await Promise.all(
        [...idsByKind].map(async ([name, ids]) => {
          const kind = this.kinds.get(name);
          return [name, kind && { kind, targets: await kind.resolve([...ids]) }] as const;
        }),
      ),
    );
    const ready: ReadyDelivery[] = [];
    for (const delivery of claimed) {
      const known = resolved.get(delivery.target_kind);
      if (known) ready.push({ delivery, kind: known.kind, target: known.targets.get(delivery.target_id) });
      else this.logger.warn(`delivery ${delivery.guid} is to a target of unknown kind ${delivery.target_kind}: left for another process`);
    }
    return ready;
  }

  /** Starts ready deliveries while there is room, overall and for their target. */
  private dispatch(): void {
    const { concurrency, targetConcurrency } = this.config.webhooks;
    for (let index = 0; index < this.ready.length && this.inFlight < concurrency;) {
      const ready = this.ready[index];
      if ((this.inFlightByTarget.get(ready.delivery.target_id) ?? 0) >= targetConcurrency) {
        index++;
        continue;
      }
      this.ready.splice(index, 1);
      this.send(ready);
    }
  }

  private send(ready: ReadyDelivery): void {
    const targetId = ready.delivery.target_id;
    this.inFlight++;
    this.inFlightByTarget.set(targetId, (this.inFlightByTarget.get(targetId) ?? 0) + 1);
    void this.attempt(ready).finally(() => {
      this.inFlight--;
      decrement(this.inFlightByTarget, targetId);
      decrement(this.claimedByTarget, targetId);
      if (this.inFlight === 0) this.onIdle?.();
      this.dispatch();
      if (this.claimedCount() <= this.config.webhooks.concurrency) this.wake();
    });
  }

  private client(timeoutMs: number): OutboundHttp {
    let client = this.clients.get(timeoutMs);
    if (!client) this.clients.set(timeoutMs, (client = new OutboundHttp(this.config.webhooks, timeoutMs)));
    return client;
  }

  private async attempt({ delivery, kind, target }: ReadyDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    if (!target || !target.active) {
      this.record({
        deliveryId: delivery.id,
        status: 'failed',
        attemptedAt,
        durationMs: 0,
        statusCode: null,
        error: target ? 'the hook is disabled' : kind.removedReason,
        requestHeaders: {},
        responseHeaders: null,
        responseBody: null,
      });
      return;
    }
    const outgoing = { guid: delivery.guid, eventType: delivery.event_type, body: delivery.body };
    const settle = (ok: boolean, gone?: string) =>
      this.settled.push({ kind, outcome: gone === undefined ? { targetId: target.id, ok } : { targetId: target.id, ok, gone } });
    const started = performance.now();
    let requestHeaders: Record<string, string> = {};
    let result: AttemptResult;
    try {
      let answer: {
        outcome: AttemptOutcome;
        statusCode: number | null;
        error: string;
        responseHeaders: Record<string, string> | null;
        responseBody: string | null;
      };
      if (kind.send) {
        const sent = await kind.send(outgoing, target, AbortSignal.timeout(kind.timeoutMs));
        requestHeaders = sent.request ?? {};
        answer = {
          outcome: sent.outcome,
          statusCode: null,
          error: sent.response ?? 'not delivered',
          responseHeaders: null,
          responseBody: sent.response ?? null,
        };
      } else {
        requestHeaders = kind.headers(outgoing, target, attemptedAt);
        const response = await this.client(kind.timeoutMs).post(target.url, requestHeaders, delivery.body);
        const error =
          response.statusCode >= 300 && response.statusCode < 400 ? `redirect (${response.statusCode}) not followed` : `HTTP ${response.statusCode}`;
        answer = {
          outcome: kind.classify(response.statusCode, response.headers['retry-after'], this.clock.now()),
          statusCode: response.statusCode,
          error,
          responseHeaders: response.headers,
          responseBody: response.body,
        };
      }
      const { outcome } = answer;
      const base = {
        deliveryId: delivery.id,
        attemptedAt,
        durationMs: performance.now() - started,
        statusCode: answer.statusCode,
        requestHeaders,
        responseHeaders: answer.responseHeaders,
        responseBody: answer.responseBody,
      };
      if (outcome.kind === 'delivered') {
        result = { ...base, status: 'delivered', error: null };
        settle(true);
      } else if (outcome.kind === 'rejected') {
        result = { ...base, status: 'failed', error: outcome.reason };
      } else if (outcome.kind === 'target-gone') {
        result = { ...base, status: 'failed', error: outcome.reason };
        settle(false, outcome.reason);
      } else {
        result = { ...base, ...this.retry(delivery, kind, answer.error, outcome.kind === 'failed' ? outcome.retryAfterSeconds : undefined) };
        settle(false);
      }
    } catch (error) {
      const { message, refused } = describeError(error, kind.timeoutMs);
      if (refused) this.logger.warn(`delivery ${delivery.guid} to ${kind.name} ${target.id}: ${message}`);
      result = {
        deliveryId: delivery.id,
        attemptedAt,
        durationMs: performance.now() - started,
        statusCode: null,
        requestHeaders,
        responseHeaders: null,
        responseBody: null,
        ...this.retry(delivery, kind, message, undefined),
      };
      settle(false);
    }
    this.record(result);
  }

  private retry(
    delivery: ClaimedDelivery,
    kind: DeliveryTargetKind,
    error: string,
    retryAfterSeconds: number | undefined,
  ): Pick<AttemptResult, 'status' | 'nextAttemptAt' | 'error'> {
    const delay = nextAttemptDelaySeconds(delivery.attempts, kind.retryScheduleSeconds, retryAfterSeconds);
    if (delay === undefined) return { status: 'failed', error: `${error}; gave up after ${delivery.attempts} attempts` };
    return { status: 'pending', nextAttemptAt: new Date(this.clock.now().getTime() + delay * 1000), error };
  }

  private record(result: AttemptResult): void {
    this.attemptsTotal.inc({ outcome: result.status === 'pending' ? 'retry' : result.status });
    this.attemptDuration.observe(result.durationMs / 1000);
    this.pendingResults.push(result);
    if (this.flushing) return;
    // A short pause gathers the attempts finishing meanwhile into the same statement.
    this.flushing = new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() => this.flush()).finally(() => (this.flushing = undefined));
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
        await this.reportOutcomes(settled);
      } catch (error) {
        // The deliveries stay claimed until their lease ends, then go out again: at least once.
        this.logger.error(`recording ${results.length} attempts failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Each kind hears how its targets' attempts ended, once they are recorded. */
  private async reportOutcomes(settled: ReadonlyArray<{ kind: DeliveryTargetKind; outcome: TargetAttemptOutcome }>): Promise<void> {
    const byKind = new Map<DeliveryTargetKind, TargetAttemptOutcome[]>();
    for (const { kind, outcome } of settled) {
      if (!kind.settled) continue;
      const outcomes = byKind.get(kind) ?? [];
      byKind.set(kind, outcomes);
      outcomes.push(outcome);
    }
    for (const [kind, outcomes] of byKind) await kind.settled?.(outcomes);
  }

  private async prune(): Promise<void> {
    this.lastPrune = this.clock.now().getTime();
    const before = new Date(this.lastPrune - this.config.webhooks.attemptRetentionDays * 86_400_000);
    while ((await this.deliveries.prune(before, PRUNE_BATCH)) >= PRUNE_BATCH && this.loop.running);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
