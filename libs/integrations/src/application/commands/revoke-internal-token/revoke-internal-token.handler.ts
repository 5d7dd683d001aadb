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
        const at = this.clock.now().toISOString();
        const decided = view
          ? await this.installations.decide(tx, view.uuid, (installation) => installation.revokeToken(tokenId, at), {
              metadata: { actorType: 'application', actorId: app.uuid },
            })
          : null;
        if (!decided) throw DomainError.notFound();
        await this.tokens.revoke(tx, [tokenId]);
      },
      { retries: 1 },
    );
  }
}
