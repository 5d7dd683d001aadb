import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';

/** Background work (subscribers, delivery, schedules) that runs in the worker role. */
export interface BackgroundWorker {
  readonly name: string;
  start(): void;
  /** Finishes the batch in hand and stops; resolves when nothing is running. */
  stop(): Promise<void>;
}

/**
 * Starts the registered workers when this process has the worker role, and on shutdown drains
 * them before the database closes. Readiness turns false as soon as shutdown begins.
 */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WorkerHost');
  private readonly workers: BackgroundWorker[] = [];
  private started = false;
  private stopping = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get runsWorkers(): boolean {
    return this.config.role !== 'api';
  }

  get isShuttingDown(): boolean {
    return this.stopping;
  }

  register(worker: BackgroundWorker): void {
    this.workers.push(worker);
    if (this.started && this.runsWorkers) worker.start();
  }

  onApplicationBootstrap(): void {
    this.started = true;
    if (!this.runsWorkers) return;
    for (const worker of this.workers) {
      worker.start();
      this.logger.log(`started ${worker.name}`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (!this.runsWorkers) return;
    await Promise.all(this.workers.map((worker) => worker.stop()));
    this.logger.log(`drained ${this.workers.length} background worker(s)`);
  }
}
