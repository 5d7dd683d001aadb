import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, grantableScopes } from '@faultline/kernel';
import { IntegrationTokens } from '@faultline/identity';
import { Database } from '@faultline/platform';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { MintInternalTokenCommand, type MintedToken } from './mint-internal-token.command';

@CommandHandler(MintInternalTokenCommand)
export class MintInternalTokenHandler implements ICommandHandler<MintInternalTokenCommand, MintedToken> {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly tokens: IntegrationTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ appSlug, minterScopes }: MintInternalTokenCommand): Promise<MintedToken> {
    return this.database.transaction(
      async (tx) => {
        const app = await this.apps.findBySlug(tx, appSlug);
        if (!app) throw DomainError.notFound();
        if (!app.is_internal) throw DomainError.forbidden('Only internal integrations can mint tokens.');
        const view = await this.installations.findLive(tx, String(app.id), String(app.owner_organization_id));
        const installation = view ? await this.installations.load(tx, view.uuid) : null;
        if (!installation) throw DomainError.notFound('The integration is not installed.');
        const scopes = grantableScopes(installation.snapshot.scopes, minterScopes);
        const issued = await this.tokens.issue(tx, {
          organizationId: installation.snapshot.organizationId,
          name: `${app.name} token`,
          scopes,
          expiresAt: null,
        });
        const at = this.clock.now().toISOString();
        await this.installations.decide(tx, installation.snapshot.uuid, (current) => current.mintInternalToken(issued.id, at), {
          metadata: { actorType: 'application', actorId: app.uuid },
          loaded: installation,
        });
        return { id: issued.id, token: issued.token, dateCreated: issued.dateCreated, expiresAt: null, scopes, refreshToken: null };
      },
      { retries: 1 },
    );
  }
}
