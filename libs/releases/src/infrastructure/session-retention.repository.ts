import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database, inBatches, type RetentionTask } from '@faultline/platform';

const BATCH = 5000;

/** Release health's hourly session counts and their distinct members older than EVENT_RETENTION_DAYS. */
@Injectable()
export class SessionRetentionRepository implements RetentionTask {
  readonly name = 'releases.sessions';

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000);
    // Members go first, per project through their primary key: the counts say which projects have old hours.
    const projects = await this.database.query<{ project_id: string }>(`SELECT DISTINCT project_id FROM releases.session_counts WHERE bucket < $1`, [cutoff]);
    let deleted = 0;
    for (const { project_id } of projects) {
      deleted += await inBatches(BATCH, (batch) =>
        this.database.execute(
          `DELETE FROM releases.session_members WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM releases.session_members WHERE project_id = $1 AND bucket < $2 LIMIT $3))`,
          [project_id, cutoff, batch],
        ),
      );
    }
    return (
      deleted +
      (await inBatches(BATCH, (batch) =>
        this.database.execute(
          `DELETE FROM releases.session_counts WHERE ctid = ANY(ARRAY(SELECT ctid FROM releases.session_counts WHERE bucket < $1 LIMIT $2))`,
          [cutoff, batch],
        ),
      ))
    );
  }
}
