import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Actors } from '@faultline/identity';
import { CLOCK, type Clock, DomainError, grantableScopes } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { mayInstall } from '../../../domain';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { actorFor } from '../../actors';
import { Installer, type NewInstallation } from '../../installer';
import { InstallSentryAppCommand } from './install-sentry-app.command';

@CommandHandler(InstallSentryAppCommand)
export class InstallSentryAppHandler implements ICommandHandler<InstallSentryAppCommand, NewInstallation & { appSlug: string }> {
  constructor(
    private readonly actors: Actors,
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly installer: Installer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organization, slug, userId, installerScopes }: InstallSentryAppCommand): Promise<NewInstallation & { appSlug: string }> {
    return this.database.transaction(async (tx) => {
      // Locked, so two installs of one app on one organization cannot both pass the check below.
      const app = await this.apps.findBySlug(tx, slug, true);
      if (!app || !mayInstall({ status: app.status, ownerOrganizationId: String(app.owner_organization_id) }, organization.id)) {
        throw DomainError.notFound('Could not find the requested integration.');
      }
      if (app.is_internal) throw DomainError.invalid('Internal integrations are installed when they are created.');
      grantableScopes(app.scopes, installerScopes);
      if (await this.installations.findLive(tx, String(app.id), organization.id))
        throw DomainError.conflict('The integration is already installed on this organization.');
      const installed = await this.installer.install(tx, app, organization, await actorFor(this.actors, tx, userId), this.clock.now().toISOString());
      return { ...installed, appSlug: app.slug };
    });
  }
}
