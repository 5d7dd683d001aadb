import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { verifyPassword } from '../../../domain/password';
import { hashSsoSecret } from '../../../domain/saml-sign-in';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import type { StartedSession } from '../../session-starter';
import { SsoSessions } from '../../sso-sessions';
import { LinkSsoAccountCommand } from './link-sso-account.command';

/**
 * Sentry's "link your account": the pending link (single-use, hashed, expiring) is spent only when
 * the password is the account's; then the identity is linked and the session has passed the SSO.
 */
@CommandHandler(LinkSsoAccountCommand)
export class LinkSsoAccountHandler implements ICommandHandler<LinkSsoAccountCommand, { session: StartedSession; organizationSlug: string }> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly users: SessionsRepository,
    private readonly sessions: SsoSessions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ linkToken, password, ttlMs, client }: LinkSsoAccountCommand) {
    const now = this.clock.now();
    const hash = hashSsoSecret(linkToken);
    const pending = await this.sso.findPendingLink(this.database, hash, now);
    if (!pending) throw DomainError.notFound('This link is not valid: sign in with SSO again.');
    const user = await this.users.findUserById(this.database, pending.user_id);
    if (!user?.is_active || !(await verifyPassword(password, user.password_hash)))
      throw new DomainError('unauthenticated', "The password is not this account's.");
    return this.database.transaction(async (tx) => {
      const link = await this.sso.findPendingLink(tx, hash, now, { consume: true });
      if (!link) throw DomainError.notFound('This link is not valid: sign in with SSO again.');
      const provider = await this.sso.signInProvider(tx, link.slug);
      if (!provider) throw DomainError.notFound('This organization does not sign in with SSO.');
      await this.sso.link(tx, link.organization_id, link.idp_user_id, link.user_id);
      await this.sessions.ensureMember(tx, link.organization_id, link.user_id, provider.default_role);
      return { session: await this.sessions.start(tx, link.user_id, link.organization_id, now, ttlMs, client), organizationSlug: link.slug };
    });
  }
}
