import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { verifyPassword } from '../../../domain/password';
import { issueChallenge } from '../../../domain/two-factor';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { SessionStarter, type StartedSession } from '../../session-starter';
import { SignInCommand } from './sign-in.command';

/** A correct password of a user with a second factor: the token of the step that follows. */
export interface TwoFactorChallenge {
  readonly twoFactorRequired: true;
  /** Given to the client once, kept only as a hash; spent by a correct code or after a few wrong ones. */
  readonly challenge: string;
  readonly expiresAt: Date;
  /** The second factors the user may answer with (recovery codes always work). */
  readonly interfaces: ReadonlyArray<'totp' | 'u2f'>;
}

/** The one answer for every failure, so it does not tell whether the e-mail has an account. */
export const SIGN_IN_FAILED = 'Invalid e-mail address or password.';

/**
 * Checks a password and starts a server-side session, or, for a user with a second factor, a
 * challenge that `CompleteTwoFactorSignInCommand` turns into a session. An unknown e-mail, a user
 * without a password and a deactivated user cost one scrypt verification and get the same answer
 * as a wrong password.
 */
@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, StartedSession | TwoFactorChallenge> {
  constructor(
    private readonly database: Database,
    private readonly repository: SessionsRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly sessions: SessionStarter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, password, ttlMs, client }: SignInCommand): Promise<StartedSession | TwoFactorChallenge> {
    const user = await this.repository.findUserByEmail(this.database, email);
    const matches = await verifyPassword(password, user?.password_hash);
    if (!user || !matches || !user.is_active) throw new DomainError('unauthenticated', SIGN_IN_FAILED);
    const now = this.clock.now();
    return this.database.transaction(async (tx) => {
      const interfaces = await this.twoFactor.secondFactors(tx, user.id);
      if (interfaces.length > 0) {
        const challenge = issueChallenge(now);
        await this.twoFactor.insertChallenge(tx, { tokenHash: challenge.tokenHash, userId: user.id, expiresAt: challenge.expiresAt }, now);
        return { twoFactorRequired: true, challenge: challenge.token, expiresAt: challenge.expiresAt, interfaces };
      }
      return this.sessions.start(tx, user, { ttlMs, client, now });
    });
  }
}
