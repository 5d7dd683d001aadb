import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { DeadLettersRepository } from '../../../infrastructure/dead-letters.repository';
import { EventProcessor } from '../../../infrastructure/event-processor.worker';
import { RetryDeadLettersCommand } from './retry-dead-letters.command';

/** Back in the queue as new arrivals with their first attempt ahead: the cause should be gone. */
@CommandHandler(RetryDeadLettersCommand)
export class RetryDeadLettersHandler implements ICommandHandler<RetryDeadLettersCommand, number> {
  constructor(
    private readonly database: Database,
    private readonly deadLetters: DeadLettersRepository,
    private readonly processor: EventProcessor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope }: RetryDeadLettersCommand): Promise<number> {
    const moved = await this.deadLetters.requeue(this.database, scope, this.clock.now());
    if (moved > 0) this.processor.wake();
    return moved;
  }
}
