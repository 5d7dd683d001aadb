import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { attributeMapping, checkAssertion, hashSsoSecret, refused, ssoIdentity } from '../../../domain/saml-sign-in';
import { SamlServiceProvider } from '../../../infrastructure/saml-service-provider';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import { SsoSessions, type SsoSignInOutcome } from '../../sso-sessions';
import { CompleteSamlSignInCommand } from './complete-saml-sign-in.command';

export type SamlSignInOutcome = SsoSignInOutcome;

/**
 * Validates the response (node-saml: signature, issuer, audience; then `checkAssertion`: time,
 * recipient, InResponseTo against the single-use RelayState), accepts each assertion id once, and
 * signs the user in as the member `decideSsoLink` names.
 */
@CommandHandler(CompleteSamlSignInCommand)
export class CompleteSamlSignInHandler implements ICommandHandler<CompleteSamlSignInCommand, SamlSignInOutcome> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly serviceProvider: SamlServiceProvider,
    private readonly sessions: SsoSessions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationSlug, samlResponse, relayState, ttlMs, client }: CompleteSamlSignInCommand): Promise<SamlSignInOutcome> {
    const provider = await this.sso.samlProvider(this.database, organizationSlug);
    if (!provider) throw DomainError.notFound('This organization does not sign in with SAML.');
    const response = await this.serviceProvider.validate(provider, samlResponse);
    const user = ssoIdentity(response.attributes, response.nameId, attributeMapping(provider.attribute_mapping));
    const now = this.clock.now();
    const organizationId = provider.organization_id;
    return this.database.transaction(async (tx) => {
      await this.sso.pruneExpired(tx, now);
      const requestId = relayState ? await this.sso.consumeRelayState(tx, hashSsoSecret(relayState), organizationId, now) : undefined;
      const accepted = checkAssertion(response.conditions, { now, acsUrl: this.serviceProvider.urls(provider.slug).acsUrl, requestId });
      if (!(await this.sso.rememberAssertion(tx, organizationId, accepted.assertionId, accepted.rememberUntil))) {
        throw refused('this assertion was used before');
      }
      return this.sessions.signIn(tx, provider, user, { now, ttlMs, client });
    });
  }
}
