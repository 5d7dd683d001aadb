import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { APP_CONFIG, type AppConfig, Database, type Transaction } from '@faultline/platform';
import { relyingPartyOf, verifySignIn } from '../../../domain/security-keys';
import { countFailure, hashChallenge, hashRecoveryCode, matchTotp, mayTryCode, TWO_FACTOR_LIMITS } from '../../../domain/two-factor';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { SessionStarter, type StartedSession } from '../../session-starter';
import { CompleteTwoFactorSignInCommand } from './complete-two-factor-sign-in.command';

/** `expired`: the challenge is unknown, used up or past its time (sign in again); `throttled`: too many wrong codes for this user lately. */
export type TwoFactorSignInResult = { readonly session: StartedSession } | { readonly refused: 'wrong_code' | 'expired' | 'throttled' };

/**
 * Turns a sign-in challenge and a correct code or security key signature into a session. A TOTP
 * code is accepted once (its time step is recorded), a recovery code is spent, a key's WebAuthn
 * challenge signs once and its counter must grow. Wrong codes count against the challenge and
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
    private readonly keys: SecurityKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ challenge, answer, ttlMs, client }: CompleteTwoFactorSignInCommand): Promise<TwoFactorSignInResult> {
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
      const user = await this.users.findUserById(tx, attempt.userId);
      if (!user?.is_active || !(await this.twoFactor.hasSecondFactor(tx, attempt.userId))) {
        await this.twoFactor.deleteChallenge(tx, tokenHash);
        return { refused: 'expired' };
      }
      const accepted =
        'code' in answer
          ? await this.acceptCode(tx, attempt.userId, answer.code, now)
          : await this.acceptKey(tx, tokenHash, attempt.userId, answer.securityKey, now);
      if (!accepted) {
        await this.twoFactor.saveFailures(tx, attempt.userId, countFailure(failures, now));
        return { refused: 'wrong_code' };
      }
      await this.twoFactor.deleteChallenge(tx, tokenHash);
      return { session: await this.sessions.start(tx, user, { ttlMs, client, now }) };
    });
  }

  /** A TOTP code (each time step once) or an unused recovery code (spent). */
  private async acceptCode(tx: Transaction, userId: string, code: string, now: Date): Promise<boolean> {
    const totp = await this.twoFactor.lockTotp(tx, userId);
    if (totp?.totp_secret) {
      const timeStep = await matchTotp(totp.totp_secret, code, now, totp.last_time_step === null ? null : Number(totp.last_time_step));
      if (timeStep !== undefined) {
        await this.twoFactor.recordTotpUse(tx, totp.id, timeStep, now);
        return true;
      }
    }
    return this.twoFactor.spendRecoveryCode(tx, userId, hashRecoveryCode(code), now);
  }

  /** One of the user's keys signed this sign-in's WebAuthn challenge (taken, so it signs once) with a counter that grew. */
  private async acceptKey(tx: Transaction, tokenHash: string, userId: string, response: AuthenticationResponseJSON, now: Date): Promise<boolean> {
    const challengeHash = await this.keys.takeSignInChallenge(tx, tokenHash);
    const key = (await this.keys.keys(tx, userId, { lock: true })).find((candidate) => candidate.credentialId === response.id);
    if (!challengeHash || !key) return false;
    const signCount = await verifySignIn(relyingPartyOf(this.config.publicUrl), response, challengeHash, key);
    if (signCount === undefined) return false;
    await this.keys.recordUse(tx, key, signCount, now);
    return true;
  }
}
