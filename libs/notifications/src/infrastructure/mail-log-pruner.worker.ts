import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database } from '@faultline/platform';
import { NotificationsRepository } from './notifications.repository';

const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5000;

/** The mail log is kept as long as the delivery engine keeps the attempts it shows (WEBHOOK_ATTEMPT_RETENTION_DAYS). */
@Injectable()
export class MailLogPruner implements BackgroundWorker {
  readonly name = 'notifications.mail-log-pruner';
  private readonly logger = new Logger('Mail');
  private readonly loop = new PollingLoop({
    runOnce: async () => {
      const before = new Date(this.clock.now().getTime() - this.config.webhooks.attemptRetentionDays * 86_400_000);
      // Again at once while whole batches go.
      return (await this.repository.pruneMails(this.database, before, PRUNE_BATCH)) >= PRUNE_BATCH;
    },
    idleDelayMs: PRUNE_INTERVAL_MS,
    onError: (error) => this.logger.warn(`pruning the mail log failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    private readonly repository: NotificationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
