import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database, DAY_MS, dayOf, inBatches, type RetentionTask } from '@faultline/platform';
import { EventAttachmentsRepository } from './event-attachments.repository';
import { EventPartitionsRepository } from './event-partitions.repository';
import { HOURLY_STATS_KEPT_MS } from './issue-read-model.repository';

const BATCH = 1000;

/**
 * Stored SDK events older than EVENT_RETENTION_DAYS, their attachments (freeing their
 * organization's stored bytes), their ids' claims, and issues' graph counts no graph shows any
 * more. Events go by whole days received (UTC): a day's partition is detached and dropped once the
 * whole day is past retention, so an event is kept at least EVENT_RETENTION_DAYS and less than a
 * day longer. Only the default partition's strays are deleted row by row. Issues, their counters
 * and the project rollups stay.
 */
@Injectable()
export class EventRetentionRepository implements RetentionTask {
  readonly name = 'issues.events';

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly attachments: EventAttachmentsRepository,
    private readonly partitions: EventPartitionsRepository,
  ) {}

  async prune(now: Date): Promise<number> {
    const exactCutoff = new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS);
    const cutoff = dayOf(exactCutoff);
    // Hourly counts serve only the last 24 hours' graphs; daily ones live as long as the events.
    const hourlyCutoff = new Date(now.getTime() - HOURLY_STATS_KEPT_MS);
    await inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM issues.issue_stats WHERE ctid = ANY(ARRAY(SELECT ctid FROM issues.issue_stats
           WHERE bucket < $1 AND (resolution = '1h' OR bucket < $2) LIMIT $3))`,
        [hourlyCutoff, exactCutoff, batch],
      ),
    );
    await this.attachments.prune(cutoff);
    let events = await this.partitions.dropBefore(cutoff);
    events += await inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM issues.error_events_default WHERE ctid = ANY(ARRAY(SELECT ctid FROM issues.error_events_default WHERE received_at < $1 LIMIT $2))`,
        [cutoff, batch],
      ),
    );
    // After the events: an id is claimed as long as its event may be stored.
    await inBatches(BATCH, (batch) =>
      this.database.execute(`DELETE FROM issues.event_ids WHERE ctid = ANY(ARRAY(SELECT ctid FROM issues.event_ids WHERE received_at < $1 LIMIT $2))`, [
        cutoff,
        batch,
      ]),
    );
    return events;
  }
}
