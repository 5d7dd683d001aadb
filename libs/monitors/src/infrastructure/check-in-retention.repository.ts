import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database, inBatches, type RetentionTask } from '@faultline/platform';

const BATCH = 5000;

/** Cron check-ins older than EVENT_RETENTION_DAYS; monitors and their environments' state stay. */
@Injectable()
export class CheckInRetentionRepository implements RetentionTask {
  readonly name = 'monitors.check-ins';

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000);
    return inBatches(BATCH, (batch) =>
      this.database.execute(
        `DELETE FROM monitors.check_ins WHERE id IN (SELECT id FROM monitors.check_ins WHERE date_created < $1 ORDER BY date_created LIMIT $2)`,
        [cutoff, batch],
      ),
    );
  }
}
