import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { SESSION_STREAM_TYPE, sessionEnded, sessionStream } from '../../../domain/identity.events';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { SignOutCommand } from './sign-out.command';

/** Revokes a session: its cookie authenticates nothing from the commit on (in this process at once). */
@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: SessionsRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute({ sessionId }: SignOutCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const userId = await this.repository.revokeSession(tx, sessionId);
      if (!userId) return;
      await this.events.record(tx, sessionStream(sessionId), SESSION_STREAM_TYPE, [sessionEnded({ sessionId, userId })]);
      tx.afterCommit(() => this.cache.clear());
    });
  }
}
