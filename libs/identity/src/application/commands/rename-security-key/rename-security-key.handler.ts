import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { RenameSecurityKeyCommand } from './rename-security-key.command';

@CommandHandler(RenameSecurityKeyCommand)
export class RenameSecurityKeyHandler implements ICommandHandler<RenameSecurityKeyCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly keys: SecurityKeysRepository,
  ) {}

  async execute({ userId, authenticatorId, keyHandle, name }: RenameSecurityKeyCommand): Promise<void> {
    if (!(await this.keys.renameKey(this.database, userId, authenticatorId, keyHandle, name))) throw DomainError.notFound();
  }
}
