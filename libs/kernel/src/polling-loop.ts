export interface PollingLoopOptions {
  /** One round of work; answers whether more is likely waiting (then the next round starts at once). */
  readonly runOnce: () => Promise<boolean>;
  /** Pause between rounds when nothing more is waiting; `wake()` cuts it short. */
  readonly idleDelayMs: number;
  /** First pause after a failed round, doubled per consecutive failure; default 500 ms. */
  readonly retryDelayMs?: number;
  /** Upper bound of the failure back-off; default 30 s. */
  readonly maxRetryDelayMs?: number;
  /** Told about each failed round, with the consecutive failures and the pause before the next. */
  readonly onError: (error: unknown, failures: number, delayMs: number) => void;
}

/**
 * The loop of a background worker: rounds of work, an idle pause that `wake()` ends early (the
 * fast path after a commit), and an exponential back-off with jitter after failures that `wake()`
 * does not shorten, so frequent commits do not hammer a failing worker. `stop()` lets the round
 * in hand finish.
 */
export class PollingLoop {
  private loop?: Promise<void>;
  private stopping = false;
  private wakeRequested = false;
  private failures = 0;
  private pause?: { readonly wakeable: boolean; readonly end: () => void };

  constructor(private readonly options: PollingLoopOptions) {}

  get running(): boolean {
    return this.loop !== undefined && !this.stopping;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run().finally(() => {
      this.loop = undefined;
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause?.end();
    await this.loop;
  }

  wake(): void {
    this.wakeRequested = true;
    if (this.pause?.wakeable) this.pause.end();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      // A wake() from here on (even during the round) means there may be more right away.
      this.wakeRequested = false;
      let more: boolean;
      try {
        more = await this.options.runOnce();
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        const delay = this.retryDelay();
        this.options.onError(error, this.failures, delay);
        await this.sleep(delay, false);
        continue;
      }
      if (!more) await this.sleep(this.options.idleDelayMs, true);
    }
  }

  /** Exponential back-off with a little jitter, so processes sharing the work spread out. */
  private retryDelay(): number {
    const exponential = (this.options.retryDelayMs ?? 500) * 2 ** Math.min(this.failures - 1, 30);
    const jittered = exponential * (0.8 + Math.random() * 0.4);
    return Math.round(Math.min(this.options.maxRetryDelayMs ?? 30_000, jittered));
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping || (wakeable && this.wakeRequested)) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.pause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.pause = { wakeable, end };
    });
  }
}
