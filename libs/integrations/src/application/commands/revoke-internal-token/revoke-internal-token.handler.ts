import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { IntegrationTokens } from '@faultline/identity';
import { Database } from '@faultline/platform';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { RevokeInternalTokenCommand } from './revoke-internal-token.command';

@CommandHandler(RevokeInternalTokenCommand)
export class RevokeInternalTokenHandler implements ICommandHandler<RevokeInternalTokenCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly tokens: IntegrationTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ appSlug, tokenId }: RevokeInternalTokenCommand): Promise<void> {
    await this.database.transaction(
      async (tx) => {
        const app = await this.apps.findBySlug(tx, appSlug);
        if (!app || !app.is_internal) throw DomainError.notFound();
        const view = await this.installations.findLive(tx, String(app.id), String(app.owner_organization_id));
        const installation = view ? await this.installations.load(tx, view.uuid) : null;
        if (!installation) throw DomainError.notFound();
        installation.revokeToken(tokenId, this.clock.now().toISOString());
        await this.tokens.revoke(tx, [tokenId]);
        await this.installations.save(tx, installation, { actorType: 'application', actorId: app.uuid });
      },
      { retries: 1 },
    );
  }
}
