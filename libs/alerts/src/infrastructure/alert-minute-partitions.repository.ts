import { Injectable } from '@nestjs/common';
import { DailyPartitions, Database, DAY_MS, type RetentionTask } from '@faultline/platform';

/** The longest window a rule reads (30 days, issue frequency conditions), plus a day. */
export const MINUTES_KEPT_MS = 31 * DAY_MS;

/**
 * The daily partitions (UTC) of the per-minute counts alert rules read, by minute, and their
 * retention: the minutes no rule reads any more go by whole days (a day's partition is detached and
 * dropped once the whole day is past MINUTES_KEPT_MS), and only the default partitions' strays
 * row by row.
 */
@Injectable()
export class AlertMinutePartitionsRepository implements RetentionTask {
  readonly name = 'alerts.minutes';
  readonly tables: readonly DailyPartitions[];

  constructor(database: Database) {
    this.tables = [
      new DailyPartitions(database, 'alerts.alert_issue_minutes', 'bucket'),
      new DailyPartitions(database, 'alerts.alert_issue_minute_users', 'bucket'),
    ];
  }

  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - MINUTES_KEPT_MS);
    let rows = 0;
    for (const partitions of this.tables) rows += await partitions.prune(cutoff);
    return rows;
  }
}
