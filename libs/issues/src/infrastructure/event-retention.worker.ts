import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database } from '@faultline/platform';
import { EventRetention } from '../contracts/event-retention';
import { EventAttachmentsRepository } from './event-attachments.repository';

const BATCH = 1000;
const INTERVAL_MS = 60_000;

/**
 * Prunes stored SDK events older than EVENT_RETENTION_DAYS, a small batch per statement so
 * ingestion never waits behind a long delete, and issues' graph counts no graph shows any more.
 * Attachments go by the same cutoff, freeing their organization's stored bytes. Issues, their
 * counters and the project rollups stay.
 */
@Injectable()
export class EventRetentionWorker extends EventRetention implements BackgroundWorker {
  readonly name = 'issues.event-retention';
  private readonly logger = new Logger('EventRetention');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      await this.prune();
      return false;
    },
    idleDelayMs: INTERVAL_MS,
    onError: (error) => this.logger.error(`pruning failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly attachments: EventAttachmentsRepository,
  ) {
    super();
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  async prune(): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000).toISOString();
    // Hourly counts serve only the last 24 hours' graphs; daily ones live as long as the events.
    const hourlyCutoff = new Date(now.getTime() - 2 * 86_400_000).toISOString();
    await this.inBatches(
      `DELETE FROM issues.issue_stats WHERE ctid = ANY(ARRAY(SELECT ctid FROM issues.issue_stats
         WHERE bucket < $1 AND (resolution = '1h' OR bucket < $2) LIMIT $3))`,
      [hourlyCutoff, cutoff],
    );
    await this.attachments.prune(new Date(cutoff));
    return this.inBatches(
      `DELETE FROM issues.error_events WHERE id IN (SELECT id FROM issues.error_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
      [cutoff],
    );
  }

  private async inBatches(sql: string, params: unknown[]): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.database.execute(sql, [...params, BATCH]);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
