import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { isTotpSecret, matchTotp, newRecoveryCodes } from '../../../domain/two-factor';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { EnrollTotpCommand } from './enroll-totp.command';

/** The recovery codes, shown this once: they replace any the user had. */
export interface TotpEnrolment {
  readonly authenticatorId: string;
  readonly recoveryCodes: readonly string[];
}

/** Enrols a TOTP app once its first code proves it holds the secret, with a fresh set of recovery codes. */
@CommandHandler(EnrollTotpCommand)
export class EnrollTotpHandler implements ICommandHandler<EnrollTotpCommand, TotpEnrolment> {
  constructor(
    private readonly database: Database,
    private readonly twoFactor: TwoFactorRepository,
    private readonly cache: AuthCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, secret, code }: EnrollTotpCommand): Promise<TotpEnrolment> {
    if (!isTotpSecret(secret))
      throw new DomainError('invalid', 'The secret is not one this server gave out.', { secret: ['The secret is not one this server gave out.'] });
    const now = this.clock.now();
    const timeStep = await matchTotp(secret, code, now, null);
    if (timeStep === undefined) throw new DomainError('invalid', 'Invalid confirmation code. Try again.', { otp: ['Invalid confirmation code. Try again.'] });
    const recovery = newRecoveryCodes();
    const enrolled = await this.database.transaction(async (tx) => {
      if (!(await this.twoFactor.insertTotp(tx, userId, secret, timeStep, now))) return undefined;
      await this.twoFactor.replaceRecoveryCodes(tx, userId, recovery.hashes, now);
      return (await this.twoFactor.authenticators(tx, userId)).find((row) => row.type === 'totp');
    });
    if (!enrolled) throw new DomainError('conflict', 'An authenticator app is already enrolled; remove it first.');
    this.cache.clear();
    return { authenticatorId: enrolled.id, recoveryCodes: recovery.codes };
  }
}
