import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, WorkerHost } from './worker-host';

/** One context's rows that grow with time and go after retention: its own tables, its own cutoff. */
export interface RetentionTask {
  readonly name: string;
  /** Deletes every row past retention at `now`, in batches (see `inBatches`); answers how many went. */
  prune(now: Date): Promise<number>;
}

/** Runs a delete of at most `batch` rows until one comes back short, so ingestion never waits behind a long delete. */
export async function inBatches(batch: number, deleteBatch: (batch: number) => Promise<number>): Promise<number> {
  let total = 0;
  let rows: number;
  do {
    rows = await deleteBatch(batch);
    total += rows;
  } while (rows >= batch);
  return total;
}

const INTERVAL_MS = 60_000;

/**
 * The worker role's one schedule for retention: every minute each registered task prunes what is
 * past its cutoff. Tests and operators call `pruneAll()`.
 */
@Injectable()
export class RetentionSchedule implements BackgroundWorker {
  readonly name = 'platform.retention';
  private readonly logger = new Logger('Retention');
  private readonly tasks: RetentionTask[] = [];
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.pruneAll();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.error(`pruning failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    workers: WorkerHost,
  ) {
    workers.register(this);
  }

  register(task: RetentionTask): void {
    this.tasks.push(task);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Prunes everything past retention now; answers the rows deleted per task. */
  async pruneAll(): Promise<Record<string, number>> {
    const now = this.clock.now();
    const deleted: Record<string, number> = {};
    for (const task of this.tasks) deleted[task.name] = await task.prune(now);
    return deleted;
  }
}
