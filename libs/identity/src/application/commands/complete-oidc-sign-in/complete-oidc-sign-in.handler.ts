import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { oidcBrowserChecks, oidcIdentity, oidcRefused } from '../../../domain/oidc-sign-in';
import { hashSsoSecret } from '../../../domain/saml-sign-in';
import { OidcRelyingParty } from '../../../infrastructure/oidc-relying-party';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import { SsoSessions, type SsoSignInOutcome } from '../../sso-sessions';
import { CompleteOidcSignInCommand } from './complete-oidc-sign-in.command';

/**
 * Spends the state first (committed, so that a replayed or failing callback cannot use it again),
 * checks that this browser started the sign-in, redeems the code (PKCE, nonce, ID token checks),
 * requires a verified e-mail, and signs the user in by the same rules as SAML.
 */
@CommandHandler(CompleteOidcSignInCommand)
export class CompleteOidcSignInHandler implements ICommandHandler<CompleteOidcSignInCommand, SsoSignInOutcome> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly relyingParty: OidcRelyingParty,
    private readonly sessions: SsoSessions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ query, browserSecret, ttlMs, client }: CompleteOidcSignInCommand): Promise<SsoSignInOutcome> {
    const state = query.get('state');
    if (!state || state.length > 256) throw oidcRefused('the callback carries no state');
    const now = this.clock.now();
    const started = await this.database.transaction(async (tx) => {
      await this.sso.pruneExpired(tx, now);
      return this.sso.consumeOidcState(tx, hashSsoSecret(state), now);
    });
    if (!started) throw oidcRefused('this sign-in is unknown, was used already or has expired; start again');
    const checks = browserSecret ? oidcBrowserChecks(browserSecret, state) : undefined;
    if (!checks || hashSsoSecret(checks.nonce) !== started.nonceHash) throw oidcRefused('this browser did not start this sign-in');
    const provider = await this.sso.oidcProvider(this.database, { organizationId: started.organizationId });
    if (!provider) throw oidcRefused('the organization no longer signs in with OpenID Connect');
    const config = await this.relyingParty.configuration(provider);
    const user = oidcIdentity(await this.relyingParty.redeem(config, query, { state, ...checks }));
    return this.database.transaction((tx) => this.sessions.signIn(tx, provider, user, { now: this.clock.now(), ttlMs, client }));
  }
}
