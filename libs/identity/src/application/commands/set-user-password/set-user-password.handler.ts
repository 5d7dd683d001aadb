import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { USER_STREAM_TYPE, userPasswordChanged, userStream } from '../../../domain/identity.events';
import { hashPassword } from '../../../domain/password';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { SetUserPasswordCommand } from './set-user-password.command';

/** Sets the password a user signs in to the web interface with; answers the user's id. */
@CommandHandler(SetUserPasswordCommand)
export class SetUserPasswordHandler implements ICommandHandler<SetUserPasswordCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly repository: SessionsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ email, password }: SetUserPasswordCommand): Promise<string> {
    const passwordHash = await hashPassword(password);
    return this.database.transaction(async (tx) => {
      const user = await this.repository.findUserByEmail(tx, email);
      if (!user) throw DomainError.notFound(`No user with e-mail ${email}`);
      await this.repository.setPassword(tx, user.id, passwordHash);
      await this.events.record(tx, userStream(user.id), USER_STREAM_TYPE, [userPasswordChanged({ userId: user.id })]);
      return user.id;
    });
  }
}
