import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { newRecoveryCodes } from '../../../domain/two-factor';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { RegenerateRecoveryCodesCommand } from './regenerate-recovery-codes.command';

/** A new set of recovery codes, shown this once; the old ones stop working. */
@CommandHandler(RegenerateRecoveryCodesCommand)
export class RegenerateRecoveryCodesHandler implements ICommandHandler<RegenerateRecoveryCodesCommand, readonly string[]> {
  constructor(
    private readonly database: Database,
    private readonly twoFactor: TwoFactorRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId }: RegenerateRecoveryCodesCommand): Promise<readonly string[]> {
    const recovery = newRecoveryCodes();
    await this.database.transaction(async (tx) => {
      if (!(await this.twoFactor.lockTotp(tx, userId))) throw new DomainError('invalid', 'Enrol an authenticator app before recovery codes.');
      await this.twoFactor.replaceRecoveryCodes(tx, userId, recovery.hashes, this.clock.now());
    });
    return recovery.codes;
  }
}
