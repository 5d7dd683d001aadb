import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, randomHex } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { issueSsoSecret, RELAY_STATE_TTL_MS } from '../../../domain/saml-sign-in';
import { SamlServiceProvider } from '../../../infrastructure/saml-service-provider';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import { StartSamlSignInCommand } from './start-saml-sign-in.command';

/**
 * Stores a single-use RelayState (only its hash, expiring) bound to the AuthnRequest's id, and
 * answers where to send the browser: the identity provider, with the request and the RelayState.
 */
@CommandHandler(StartSamlSignInCommand)
export class StartSamlSignInHandler implements ICommandHandler<StartSamlSignInCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly serviceProvider: SamlServiceProvider,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationSlug }: StartSamlSignInCommand): Promise<string> {
    const provider = await this.sso.samlProvider(this.database, organizationSlug);
    if (!provider) throw DomainError.notFound('This organization does not sign in with SAML.');
    const now = this.clock.now();
    const relayState = issueSsoSecret(now, RELAY_STATE_TTL_MS);
    // An xs:ID starts with a letter or an underscore.
    const requestId = `_${randomHex(20)}`;
    await this.database.transaction(async (tx) => {
      await this.sso.pruneExpired(tx, now);
      await this.sso.insertRelayState(tx, { hash: relayState.hash, organizationId: provider.organization_id, requestId, expiresAt: relayState.expiresAt });
    });
    return this.serviceProvider.authorizeUrl(provider, requestId, relayState.value);
  }
}
