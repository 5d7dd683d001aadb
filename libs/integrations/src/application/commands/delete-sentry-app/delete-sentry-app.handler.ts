import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Actors } from '@faultline/identity';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { WebhookTargets } from '@faultline/webhooks';
import { APP_WEBHOOK_TARGET, SENTRY_APP_STREAM_TYPE, sentryAppDeleted, sentryAppStream } from '../../../domain';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { actorFor } from '../../actors';
import { Installer } from '../../installer';
import { DeleteSentryAppCommand } from './delete-sentry-app.command';

@CommandHandler(DeleteSentryAppCommand)
export class DeleteSentryAppHandler implements ICommandHandler<DeleteSentryAppCommand, void> {
  constructor(
    private readonly actors: Actors,
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly installer: Installer,
    private readonly recorder: EventRecorder,
    private readonly targets: WebhookTargets,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ slug, userId }: DeleteSentryAppCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const app = await this.apps.findBySlug(tx, slug, true);
      if (!app) throw DomainError.notFound();
      const actor = await actorFor(this.actors, tx, userId);
      const at = this.clock.now().toISOString();
      for (const view of await this.installations.listLiveForApp(tx, String(app.id))) {
        const installation = await this.installations.load(tx, view.uuid);
        if (installation) await this.installer.uninstall(tx, installation, app, view.organization_slug, actor, at, false);
      }
      await this.targets.remove(tx, APP_WEBHOOK_TARGET, app.uuid, 'the app was deleted');
      await this.recorder.record(tx, sentryAppStream(app.uuid), SENTRY_APP_STREAM_TYPE, [sentryAppDeleted({ appUuid: app.uuid, userId })]);
      await this.apps.delete(tx, String(app.id));
    });
  }
}
