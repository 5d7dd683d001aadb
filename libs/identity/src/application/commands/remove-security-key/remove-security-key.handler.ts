import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { RemoveSecurityKeyCommand } from './remove-security-key.command';

/**
 * Removes one security key. The last key takes the `u2f` authenticator with it, and the last
 * second factor the recovery codes; that is refused while an organization of the user requires
 * two-factor authentication.
 */
@CommandHandler(RemoveSecurityKeyCommand)
export class RemoveSecurityKeyHandler implements ICommandHandler<RemoveSecurityKeyCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly keys: SecurityKeysRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly cache: AuthCache,
  ) {}

  async execute({ userId, authenticatorId, keyHandle }: RemoveSecurityKeyCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      if ((await this.keys.deleteKey(tx, userId, authenticatorId, keyHandle)) === undefined) throw DomainError.notFound();
      if (await this.twoFactor.hasSecondFactor(tx, userId)) return;
      const requiring = await this.twoFactor.organizationsRequiring2fa(tx, userId);
      if (requiring.length > 0) throw new DomainError('forbidden', `Cannot remove two-factor authentication: required by ${requiring.join(', ')}.`);
      await this.twoFactor.dropOrphanRecoveryCodes(tx, userId);
    });
    this.cache.clear();
  }
}
