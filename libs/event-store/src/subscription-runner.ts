import { PollingLoop, type RecordedEvent } from '@faultline/kernel';
// Type-only: the platform barrel also carries Nest modules, which this framework-light file avoids.
import type { BackgroundWorker, Database, Transaction } from '@faultline/platform';
import type { ReadAllFilter } from './contracts';
import type { EventRecorder } from './event-recorder';
import type { EventStore } from './event-store';

/**
 * Handles one batch inside the transaction that will also advance the checkpoint, so the effect and
 * the checkpoint commit together. Write through `tx` only: a write on another connection commits
 * apart from the checkpoint, and one that touches rows this transaction holds waits for it.
 */
export type SubscriptionHandler = (events: RecordedEvent[], tx: Transaction) => Promise<void>;

/** What the runner needs from a logger; Nest's Logger, pino and console all fit. */
export interface SubscriptionLogger {
  warn(message: string): void;
}

export interface SubscriptionRunnerOptions {
  /** The durable subscriber name: the checkpoint row's key. Renaming it starts from the beginning. */
  readonly name: string;
  readonly database: Database;
  readonly eventStore: EventStore;
  readonly handle: SubscriptionHandler;
  readonly filter?: ReadAllFilter;
  /** Events per transaction; default 100. */
  readonly batchSize?: number;
  /** Pause between polls when caught up; default 250 ms. `wake()` cuts it short. */
  readonly idleDelayMs?: number;
  /** First pause after a failed batch, doubled per consecutive failure; default 500 ms. */
  readonly retryDelayMs?: number;
  /** Upper bound of the failure back-off; default 30 s. */
  readonly maxRetryDelayMs?: number;
  readonly logger?: SubscriptionLogger;
}

/**
 * One durable subscriber of the global event stream. Each batch is one transaction: lock the
 * checkpoint row, read the events after it, hand them to the handler, save the checkpoint, commit.
 * A failing handler rolls all of that back, so the same events come again after a back-off.
 * Several processes may run the same subscriber: the row lock lets one batch through at a time.
 */
export class SubscriptionRunner implements BackgroundWorker {
  readonly name: string;
  private readonly batchSize: number;
  private readonly loop: PollingLoop;

  constructor(private readonly options: SubscriptionRunnerOptions) {
    if (!options.name) throw new TypeError('A subscription needs a name');
    this.name = options.name;
    this.batchSize = positiveInteger('batchSize', options.batchSize ?? 100);
    const logger = options.logger ?? console;
    this.loop = new PollingLoop({
      // A full batch suggests more is waiting.
      runOnce: async () => (await this.runBatch()) >= this.batchSize,
      idleDelayMs: options.idleDelayMs ?? 250,
      retryDelayMs: options.retryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs,
      onError: (error, failures, delay) => logger.warn(`subscription ${this.name} failed (${failures} in a row), retrying in ${delay} ms: ${describe(error)}`),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Lets the batch in hand finish (commit or roll back), then resolves. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /**
   * Runs the next batch now instead of after the idle delay: the fast path after a commit. A
   * failing subscriber keeps its back-off, so frequent commits do not hammer it.
   */
  wake(): void {
    this.loop.wake();
  }

  /** Handles batches until none is left and answers how many events were handled. Errors propagate. */
  async catchUp(): Promise<number> {
    let total = 0;
    for (;;) {
      const handled = await this.runBatch();
      if (handled === 0) return total;
      total += handled;
    }
  }

  /** One transaction: lock the checkpoint, read after it, handle, advance. Answers the events handled. */
  private async runBatch(): Promise<number> {
    const { database, eventStore, handle, filter } = this.options;
    return database.transaction(async (tx) => {
      const position = await eventStore.lockCheckpoint(tx, this.name);
      const events = await eventStore.readAll(tx, position, this.batchSize, filter);
      if (events.length === 0) return 0;
      await handle(events, tx);
      await eventStore.saveCheckpoint(tx, this.name, events[events.length - 1].globalPosition);
      return events.length;
    });
  }
}

export interface SubscriptionRunnerFactoryOptions {
  /** Runners wake when this recorder's transactions commit, rather than at their next poll. */
  readonly recorder?: EventRecorder;
  readonly loggerFor?: (name: string) => SubscriptionLogger;
}

/** Builds runners that share the application's database and event store. */
export class SubscriptionRunnerFactory {
  constructor(
    private readonly database: Database,
    private readonly eventStore: EventStore,
    private readonly options: SubscriptionRunnerFactoryOptions = {},
  ) {}

  /**
   * A new runner, woken after every commit of the recorder. Register it with the platform's
   * WorkerHost so that it runs in the worker role and drains on shutdown.
   */
  create(options: Omit<SubscriptionRunnerOptions, 'database' | 'eventStore'>): SubscriptionRunner {
    const runner = new SubscriptionRunner({
      logger: this.options.loggerFor?.(options.name),
      ...options,
      database: this.database,
      eventStore: this.eventStore,
    });
    this.options.recorder?.onCommitted(() => runner.wake());
    return runner;
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
