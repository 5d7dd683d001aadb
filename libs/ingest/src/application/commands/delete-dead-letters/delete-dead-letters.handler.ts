import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { DeadLettersRepository } from '../../../infrastructure/dead-letters.repository';
import { DeleteDeadLettersCommand } from './delete-dead-letters.command';

@CommandHandler(DeleteDeadLettersCommand)
export class DeleteDeadLettersHandler implements ICommandHandler<DeleteDeadLettersCommand, number> {
  constructor(
    private readonly database: Database,
    private readonly deadLetters: DeadLettersRepository,
  ) {}

  execute({ scope }: DeleteDeadLettersCommand): Promise<number> {
    return this.deadLetters.delete(this.database, scope);
  }
}
