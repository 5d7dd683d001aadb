import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { countFailure, hashChallenge, hashRecoveryCode, matchTotp, mayTryCode, TWO_FACTOR_LIMITS } from '../../../domain/two-factor';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { SessionStarter, type StartedSession } from '../../session-starter';
import { CompleteTwoFactorSignInCommand } from './complete-two-factor-sign-in.command';

/** `expired`: the challenge is unknown, used up or past its time (sign in again); `throttled`: too many wrong codes for this user lately. */
export type TwoFactorSignInResult = { readonly session: StartedSession } | { readonly refused: 'wrong_code' | 'expired' | 'throttled' };

/**
 * Turns a sign-in challenge and a correct code into a session. A TOTP code is accepted once (its
 * time step is recorded), a recovery code is spent. Wrong codes count against the challenge and
 * against the user in a table every API process shares, committed before the answer, so guessing
 * in parallel across processes or challenges gains nothing.
 */
@CommandHandler(CompleteTwoFactorSignInCommand)
export class CompleteTwoFactorSignInHandler implements ICommandHandler<CompleteTwoFactorSignInCommand, TwoFactorSignInResult> {
  constructor(
    private readonly database: Database,
    private readonly users: SessionsRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly sessions: SessionStarter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ challenge, code, ttlMs, client }: CompleteTwoFactorSignInCommand): Promise<TwoFactorSignInResult> {
    const now = this.clock.now();
    const tokenHash = hashChallenge(challenge);
    return this.database.transaction(async (tx): Promise<TwoFactorSignInResult> => {
      const attempt = await this.twoFactor.attemptChallenge(tx, tokenHash, now);
      if (!attempt) return { refused: 'expired' };
      if (attempt.attempts > TWO_FACTOR_LIMITS.attemptsPerChallenge) {
        await this.twoFactor.deleteChallenge(tx, tokenHash);
        return { refused: 'expired' };
      }
      const failures = await this.twoFactor.lockFailures(tx, attempt.userId);
      if (!mayTryCode(failures, now)) return { refused: 'throttled' };
      const totp = await this.twoFactor.lockTotp(tx, attempt.userId);
      const user = await this.users.findUserById(tx, attempt.userId);
      if (!totp?.totp_secret || !user?.is_active) {
        await this.twoFactor.deleteChallenge(tx, tokenHash);
        return { refused: 'expired' };
      }
      const timeStep = await matchTotp(totp.totp_secret, code, now, totp.last_time_step === null ? null : Number(totp.last_time_step));
      if (timeStep !== undefined) await this.twoFactor.recordTotpUse(tx, totp.id, timeStep, now);
      else if (!(await this.twoFactor.spendRecoveryCode(tx, attempt.userId, hashRecoveryCode(code), now))) {
        await this.twoFactor.saveFailures(tx, attempt.userId, countFailure(failures, now));
        return { refused: 'wrong_code' };
      }
      await this.twoFactor.deleteChallenge(tx, tokenHash);
      return { session: await this.sessions.start(tx, user, { ttlMs, client, now }) };
    });
  }
}
