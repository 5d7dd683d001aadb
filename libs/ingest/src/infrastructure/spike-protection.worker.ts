import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, Database } from '@faultline/platform';
import { SpikeProtectionEvaluation } from '../contracts/spike-protection-evaluation';
import { evaluateSpike, hourStart, ORGANIZATION_SPIKES_STREAM_TYPE, organizationSpikesStream, spikeProtectionActivated } from '../domain';
import { OrganizationLimitsCache } from './organization-limits.cache';
import { RATE_LIMITS_CONFIG, type RateLimitsConfig } from './rate-limits-config';
import { RateLimitsRepository } from './rate-limits.repository';

const BATCH_SIZE = 100;
const IDLE_POLL_MS = 5_000;
const HOUR_MS = 3_600_000;
const PRUNE_BATCH = 5_000;

/**
 * Spike protection off the hot path: claims organizations due for evaluation (FOR UPDATE SKIP
 * LOCKED, so worker processes share them and none is evaluated twice at once), reads each one's
 * baseline and current hour in the claiming statement, and commits the new threshold, spike state
 * and next evaluation together, with the event that tells the owners when a spike begins (once per
 * spike: the state that says it began commits with it). The accept path reads the state through a
 * short-lived cache.
 */
@Injectable()
export class SpikeProtectionWorker extends SpikeProtectionEvaluation implements BackgroundWorker {
  readonly name = 'ingest.spike-protection';
  private readonly logger = new Logger('SpikeProtectionWorker');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      const evaluated = await this.evaluateBatch();
      if (evaluated === 0) await this.pruneVolume();
      return evaluated === BATCH_SIZE;
    },
    idleDelayMs: IDLE_POLL_MS,
    onError: (error) => this.logger.error(`spike protection evaluation failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    private readonly repository: RateLimitsRepository,
    private readonly cache: OrganizationLimitsCache,
    private readonly recorder: EventRecorder,
    @Inject(RATE_LIMITS_CONFIG) private readonly config: RateLimitsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Evaluates every organization due now (for tests and the CLI). */
  async evaluateDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const evaluated = await this.evaluateBatch();
      total += evaluated;
      if (evaluated > 0) continue;
      if (!(await this.repository.anyDue(this.database, this.clock.now()))) return total;
      // Due rows another worker holds: wait for it to commit them.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async evaluateBatch(): Promise<number> {
    const now = this.clock.now();
    const hour = hourStart(now);
    await this.repository.enrol(this.database, new Date(hour.getTime() - HOUR_MS), now);
    return this.database.transaction(async (tx) => {
      const baselineStart = new Date(hour.getTime() - this.config.spike.baselineHours * HOUR_MS);
      const claimed = await this.repository.claimDue(tx, now, hour, baselineStart, BATCH_SIZE);
      const next = new Date(now.getTime() + this.config.spikeEvaluationSeconds * 1000);
      for (const organization of claimed) {
        const evaluation = evaluateSpike({
          enabled: organization.spikeProtection,
          baselineErrors: organization.baselineErrors,
          currentHourErrors: organization.currentHourErrors,
          state: organization.spike,
          settings: this.config.spike,
          now,
        });
        await this.repository.evaluated(tx, organization.organizationId, evaluation.threshold, evaluation.state, next);
        if (evaluation.started && evaluation.state.startedAt && evaluation.state.limitedUntil) {
          await this.recorder.record(
            tx,
            organizationSpikesStream(organization.organizationId),
            ORGANIZATION_SPIKES_STREAM_TYPE,
            [
              spikeProtectionActivated({
                organizationId: organization.organizationId,
                threshold: evaluation.threshold,
                startedAt: evaluation.state.startedAt.toISOString(),
                limitedUntil: evaluation.state.limitedUntil.toISOString(),
              }),
            ],
            { metadata: { actorType: 'system', actorId: 'spike-protection' } },
          );
        }
        if (evaluation.state.limitedUntil?.getTime() !== organization.spike.limitedUntil?.getTime()) {
          tx.afterCommit(() => this.cache.forget(organization.organizationId));
        }
      }
      return claimed.length;
    });
  }

  private async pruneVolume(): Promise<void> {
    const keepFrom = new Date(hourStart(this.clock.now()).getTime() - (this.config.spike.baselineHours + 1) * HOUR_MS);
    while ((await this.repository.pruneVolume(this.database, keepFrom, PRUNE_BATCH)) === PRUNE_BATCH);
  }
}
