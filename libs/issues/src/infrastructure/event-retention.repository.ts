import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, DAY_MS, dayOf, type RetentionTask } from '@faultline/platform';
import { EventAttachmentsRepository } from './event-attachments.repository';
import { EventPartitionsRepository } from './event-partitions.repository';
import { HOURLY_STATS_KEPT_MS } from './issue-read-model.repository';

/**
 * Stored SDK events older than EVENT_RETENTION_DAYS, their attachments (freeing their
 * organization's stored bytes), their ids' claims, and issues' graph counts no graph shows any
 * more. Events, claims and daily counts go by whole days (UTC): a day's partition is detached and
 * dropped once the whole day is past retention, so an event is kept at least EVENT_RETENTION_DAYS
 * and less than a day longer; hourly counts likewise once their day is older than
 * HOURLY_STATS_KEPT_MS. Only the default partitions' strays are deleted row by row. Issues, their
 * counters and the project rollups stay.
 */
@Injectable()
export class EventRetentionRepository implements RetentionTask {
  readonly name = 'issues.events';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly attachments: EventAttachmentsRepository,
    private readonly partitions: EventPartitionsRepository,
  ) {}

  async prune(now: Date): Promise<number> {
    const cutoff = dayOf(new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS));
    const { events, claims, hourlyStats, dailyStats } = this.partitions;
    // Hourly counts serve only the last days' graphs; daily ones live as long as the events.
    await hourlyStats.prune(new Date(now.getTime() - HOURLY_STATS_KEPT_MS));
    await dailyStats.prune(cutoff);
    await this.attachments.prune(cutoff);
    const dropped = await events.prune(cutoff);
    // After the events: an id is claimed as long as its event may be stored.
    await claims.prune(cutoff);
    return dropped;
  }
}
