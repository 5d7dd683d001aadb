import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import type { BackgroundWorker } from '@faultline/platform';
import { IssueEventMovesRepository } from './issue-event-moves.repository';

const INTERVAL_MS = 30_000;
/** A move this old is no longer being run by the request that decided it (it crashed or gave up). */
const STALE_AFTER_MS = 60_000;
const MOVES_PER_ROUND = 10;

/**
 * Finishes the moves of merges, unmerges and deletes that their request left: steps run under the
 * move's row lock (skipping one another worker holds), so any number of workers share them.
 */
@Injectable()
export class IssueEventMovesWorker implements BackgroundWorker {
  readonly name = 'issues.event-moves';
  private readonly logger = new Logger('IssueEventMoves');
  private readonly loop = new PollingLoop({
    runOnce: () => this.resumeStale().then((resumed) => resumed >= MOVES_PER_ROUND),
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.warn(`resuming moves failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly moves: IssueEventMovesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Runs the stale moves to their end; answers how many it took up (tests and the CLI call it). */
  async resumeStale(): Promise<number> {
    const ids = await this.moves.stale(new Date(this.clock.now().getTime() - STALE_AFTER_MS).toISOString(), MOVES_PER_ROUND);
    for (const id of ids) await this.moves.complete(id, false);
    return ids.length;
  }
}
