import { Injectable } from '@nestjs/common';
import { DailyPartitions, Database } from '@faultline/platform';

/**
 * The daily partitions (UTC) of the tables that grow with stored events: the events by
 * `received_at`, their ids' claims by `claimed_on` (the day received), and the issues' hourly and
 * daily graph counts by `bucket`.
 */
@Injectable()
export class EventPartitionsRepository {
  readonly events: DailyPartitions;
  readonly claims: DailyPartitions;
  readonly hourlyStats: DailyPartitions;
  readonly dailyStats: DailyPartitions;

  constructor(database: Database) {
    this.events = new DailyPartitions(database, 'issues.error_events', 'received_at');
    this.claims = new DailyPartitions(database, 'issues.event_ids', 'claimed_on');
    this.hourlyStats = new DailyPartitions(database, 'issues.issue_stats_hourly', 'bucket');
    this.dailyStats = new DailyPartitions(database, 'issues.issue_stats_daily', 'bucket');
  }
}
