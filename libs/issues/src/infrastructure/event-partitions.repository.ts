import { Injectable } from '@nestjs/common';
import { DailyPartitions, Database } from '@faultline/platform';

/** The daily partitions of `issues.error_events`, by `received_at` (UTC). */
@Injectable()
export class EventPartitionsRepository extends DailyPartitions {
  constructor(database: Database) {
    super(database, 'issues.error_events', 'received_at');
  }
}
