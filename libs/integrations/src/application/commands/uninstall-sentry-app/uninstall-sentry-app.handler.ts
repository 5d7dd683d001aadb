import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Actors } from '@faultline/identity';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { type SentryAppRow, SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { actorFor } from '../../actors';
import { Installer } from '../../installer';
import { UninstallSentryAppCommand } from './uninstall-sentry-app.command';

@CommandHandler(UninstallSentryAppCommand)
export class UninstallSentryAppHandler implements ICommandHandler<UninstallSentryAppCommand, void> {
  constructor(
    private readonly actors: Actors,
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly installer: Installer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ installationUuid, userId }: UninstallSentryAppCommand): Promise<void> {
    await this.database.transaction(
      async (tx) => {
        const view = await this.installations.find(tx, installationUuid);
        const installation = await this.installations.load(tx, installationUuid);
        if (!view || !installation || view.status === 'deleted') throw DomainError.notFound();
        const app = (await this.apps.findById(tx, String(view.app_id))) as SentryAppRow;
        await this.installer.uninstall(tx, installation, app, view.organization_slug, await actorFor(this.actors, tx, userId), this.clock.now().toISOString());
      },
      { retries: 1 },
    );
  }
}
