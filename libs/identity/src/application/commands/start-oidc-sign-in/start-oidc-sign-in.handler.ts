import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { oidcBrowserChecks } from '../../../domain/oidc-sign-in';
import { hashSsoSecret, issueSsoSecret, RELAY_STATE_TTL_MS } from '../../../domain/saml-sign-in';
import { OidcRelyingParty } from '../../../infrastructure/oidc-relying-party';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import { StartOidcSignInCommand } from './start-oidc-sign-in.command';

/**
 * Stores the sign-in's state as SAML's RelayState is kept (only its hash, single-use, expiring)
 * with the hash of its nonce, and answers the provider's authorization URL (code flow with PKCE).
 */
@CommandHandler(StartOidcSignInCommand)
export class StartOidcSignInHandler implements ICommandHandler<StartOidcSignInCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly relyingParty: OidcRelyingParty,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationSlug, browserSecret }: StartOidcSignInCommand): Promise<string> {
    const provider = await this.sso.oidcProvider(this.database, { slug: organizationSlug });
    if (!provider) throw DomainError.notFound('This organization does not sign in with OpenID Connect.');
    const config = await this.relyingParty.configuration(provider);
    const now = this.clock.now();
    const state = issueSsoSecret(now, RELAY_STATE_TTL_MS);
    const checks = oidcBrowserChecks(browserSecret, state.value);
    await this.database.transaction(async (tx) => {
      await this.sso.pruneExpired(tx, now);
      await this.sso.insertRelayState(tx, {
        hash: state.hash,
        organizationId: provider.organization_id,
        requestId: hashSsoSecret(checks.nonce),
        expiresAt: state.expiresAt,
        protocol: 'oidc',
      });
    });
    return (await this.relyingParty.authorizationUrl(config, { scopes: provider.scopes, state: state.value, ...checks })).href;
  }
}
