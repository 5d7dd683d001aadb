import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database } from '@faultline/platform';

const BATCH = 1000;
const INTERVAL_MS = 60_000;

/**
 * Prunes stored SDK events older than EVENT_RETENTION_DAYS, a small batch per statement so
 * ingestion never waits behind a long delete. Issues, counters and rollups stay.
 */
@Injectable()
export class EventRetentionWorker implements BackgroundWorker {
  readonly name = 'issues.event-retention';
  private readonly logger = new Logger('EventRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.prune().catch((error: unknown) => {
        this.logger.error(`pruning failed: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      });
      void this.running.finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, INTERVAL_MS);
      });
    };
    this.timer = setTimeout(tick, 1_000);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Deletes everything past retention; answers how many events went. */
  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await this.database.execute(
        `DELETE FROM error_events WHERE id IN (SELECT id FROM error_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
        [cutoff, BATCH],
      );
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
