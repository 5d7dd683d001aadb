import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { linkedIdentityStatus, UNLINK_REFUSALS } from '../../../domain/linked-identity';
import { SsoRepository } from '../../../infrastructure/sso.repository';
import { UnlinkSsoIdentityCommand } from './unlink-sso-identity.command';

/** Removes the user's link to an organization's identity provider: the next SSO sign-in links again (confirmed by password). */
@CommandHandler(UnlinkSsoIdentityCommand)
export class UnlinkSsoIdentityHandler implements ICommandHandler<UnlinkSsoIdentityCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly sso: SsoRepository,
  ) {}

  async execute({ userId, organizationId }: UnlinkSsoIdentityCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const link = (await this.sso.identitiesOf(tx, userId)).find((row) => row.organization_id === organizationId);
      if (!link) throw DomainError.notFound();
      const status = linkedIdentityStatus({ ssoRequired: link.provider !== null, isOwner: link.role === 'owner', hasPassword: link.has_password });
      if (status !== 'can_disconnect') throw DomainError.invalid(UNLINK_REFUSALS[status]);
      await this.sso.unlink(tx, organizationId, userId);
    });
  }
}
