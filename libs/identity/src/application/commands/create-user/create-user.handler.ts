import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { IdentityRepository, type UserRow } from '../../../infrastructure/identity.repository';
import { CreateUserCommand } from './create-user.command';

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand, UserRow> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  async execute(command: CreateUserCommand): Promise<UserRow> {
    const email = command.email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw DomainError.invalid(`email: "${email}" is not an e-mail address`);
    return this.database.transaction(async (tx) => {
      if (await this.repository.findUserByEmail(tx, email)) throw DomainError.conflict(`A user with e-mail ${email} already exists.`);
      return this.repository.insertUser(tx, { email, name: command.name || email, isSuperuser: command.isSuperuser });
    });
  }
}
