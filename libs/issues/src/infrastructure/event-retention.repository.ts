import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database, inBatches, type RetentionTask } from '@faultline/platform';
import { EventAttachmentsRepository } from './event-attachments.repository';
import { HOURLY_STATS_KEPT_MS } from './issue-read-model.repository';

const BATCH = 1000;

/**
 * Stored SDK events older than EVENT_RETENTION_DAYS, their attachments (freeing their
 * organization's stored bytes), and issues' graph counts no graph shows any more. Issues, their
 * counters and the project rollups stay.
 */
@Injectable()
export class EventRetentionRepository implements RetentionTask {
  readonly name = 'issues.events';

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly attachments: EventAttachmentsRepository,
  ) {}

  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000);
    // Hourly counts serve only the last 24 hours' graphs; daily ones live as long as the events.
    const hourlyCutoff = new Date(now.getTime() - HOURLY_STATS_KEPT_MS);
    await inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM issues.issue_stats WHERE ctid = ANY(ARRAY(SELECT ctid FROM issues.issue_stats
           WHERE bucket < $1 AND (resolution = '1h' OR bucket < $2) LIMIT $3))`,
        [hourlyCutoff, cutoff, batch],
      ),
    );
    await this.attachments.prune(cutoff);
    return inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM issues.error_events WHERE id IN (SELECT id FROM issues.error_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
        [cutoff, batch],
      ),
    );
  }
}
