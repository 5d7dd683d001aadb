import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { RemoveAuthenticatorCommand } from './remove-authenticator.command';

/**
 * Removes an authenticator; the last second factor takes the recovery codes with it, and is
 * refused while an organization of the user requires two-factor authentication, as Sentry refuses it.
 */
@CommandHandler(RemoveAuthenticatorCommand)
export class RemoveAuthenticatorHandler implements ICommandHandler<RemoveAuthenticatorCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly twoFactor: TwoFactorRepository,
    private readonly cache: AuthCache,
  ) {}

  async execute({ userId, authenticatorId }: RemoveAuthenticatorCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      if (!(await this.twoFactor.deleteAuthenticator(tx, userId, authenticatorId))) throw DomainError.notFound();
      if (await this.twoFactor.hasSecondFactor(tx, userId)) return;
      const requiring = await this.twoFactor.organizationsRequiring2fa(tx, userId);
      if (requiring.length > 0) {
        throw new DomainError('forbidden', `Cannot remove two-factor authentication: required by ${requiring.join(', ')}.`);
      }
    });
    this.cache.clear();
  }
}
