import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import {
  attributeMapping,
  checkAssertion,
  decideSsoLink,
  hashSsoSecret,
  issueSsoSecret,
  PENDING_LINK_TTL_MS,
  refused,
  ssoIdentity,
} from '../../../domain/saml-sign-in';
import { SamlServiceProvider } from '../../../infrastructure/saml-service-provider';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import type { StartedSession } from '../../session-starter';
import { SsoSessions } from '../../sso-sessions';
import { CompleteSamlSignInCommand } from './complete-saml-sign-in.command';

export type SamlSignInOutcome =
  | { readonly kind: 'session'; readonly session: StartedSession; readonly organizationSlug: string }
  /** The e-mail belongs to an account that must prove it is its owner's before it is linked. */
  | { readonly kind: 'link'; readonly linkToken: string; readonly organizationSlug: string };

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
      const decision = decideSsoLink({
        linkedUserId: await this.sso.linkedUser(tx, organizationId, user.idpUserId),
        provisionedMemberUserId: await this.sso.provisionedMember(tx, organizationId, user.idpUserId, user.email),
        existingUserId: await this.sso.userByEmail(tx, user.email),
      });
      if (decision.kind === 'prove-ownership') {
        const link = issueSsoSecret(now, PENDING_LINK_TTL_MS);
        await this.sso.insertPendingLink(tx, {
          hash: link.hash,
          organizationId,
          idpUserId: user.idpUserId,
          userId: decision.userId,
          expiresAt: link.expiresAt,
        });
        return { kind: 'link', linkToken: link.value, organizationSlug: provider.slug };
      }
      const userId = decision.kind === 'join' ? await this.sso.createUser(tx, user.email, user.name, organizationId) : decision.userId;
      if (decision.kind !== 'linked') await this.sso.link(tx, organizationId, user.idpUserId, userId);
      await this.sessions.ensureMember(tx, organizationId, userId, provider.default_role);
      const session = await this.sessions.start(tx, userId, organizationId, now, ttlMs, client);
      return { kind: 'session', session, organizationSlug: provider.slug };
    });
  }
}
