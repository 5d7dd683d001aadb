import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { SESSION_STREAM_TYPE, sessionStarted, sessionStream } from '../../../domain/identity.events';
import { verifyPassword } from '../../../domain/password';
import { issueSession } from '../../../domain/user-session';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { SignInCommand } from './sign-in.command';

export interface StartedSession {
  readonly sessionId: string;
  /** The cookie's value: returned this once, stored only as a hash. */
  readonly cookieValue: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
  readonly user: { id: string; email: string; name: string; isSuperuser: boolean };
}

/** The one answer for every failure, so it does not tell whether the e-mail has an account. */
export const SIGN_IN_FAILED = 'Invalid e-mail address or password.';

/**
 * Checks a password and starts a server-side session. An unknown e-mail, a user without a
 * password and a deactivated user cost one scrypt verification and get the same answer as a wrong
 * password.
 */
@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, StartedSession> {
  constructor(
    private readonly database: Database,
    private readonly repository: SessionsRepository,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, password, ttlMs, client }: SignInCommand): Promise<StartedSession> {
    const user = await this.repository.findUserByEmail(this.database, email);
    const matches = await verifyPassword(password, user?.password_hash);
    if (!user || !matches || !user.is_active) throw new DomainError('unauthenticated', SIGN_IN_FAILED);
    const issued = issueSession();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlMs);
    return this.database.transaction(async (tx) => {
      await this.repository.pruneExpired(tx, now);
      const session = await this.repository.insertSession(tx, {
        userId: user.id,
        tokenHash: issued.tokenHash,
        csrfToken: issued.csrfToken,
        expiresAt,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        ipAddress: client.ipAddress,
      });
      await this.events.record(tx, sessionStream(session.id), SESSION_STREAM_TYPE, [
        sessionStarted({ sessionId: session.id, userId: user.id, expiresAt: expiresAt.toISOString() }),
      ]);
      return {
        sessionId: session.id,
        cookieValue: issued.cookieValue,
        csrfToken: issued.csrfToken,
        expiresAt,
        user: { id: user.id, email: user.email, name: user.name, isSuperuser: user.is_superuser },
      };
    });
  }
}
