import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { IssueEventMovesRepository } from '../../../infrastructure/issue-event-moves.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { DeleteIssueCommand } from './delete-issue.command';

/**
 * The issues vanish at once: their hashes go (new events of them start new issues) and a delete
 * of their rows is recorded, which hides them. Their events (with their attachments), users, tag
 * values and graphs then go in bounded steps before the answer, the issue's row last; a worker
 * finishes what a crash leaves.
 */
@CommandHandler(DeleteIssueCommand)
export class DeleteIssueHandler implements ICommandHandler<DeleteIssueCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly moves: IssueEventMovesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueIds, projectId }: DeleteIssueCommand): Promise<void> {
    const at = this.clock.now().toISOString();
    const moveIds = await this.database.transaction(async (tx) => {
      const ids = await lockIssues(tx, organizationId, issueIds, projectId);
      await this.moves.assertIdle(tx, ids);
      const recorded: string[] = [];
      for (const id of ids) recorded.push(await this.moves.enqueue(tx, { kind: 'delete', sourceIssueId: id }, at));
      return recorded;
    });
    for (const moveId of moveIds) await this.moves.complete(moveId);
  }
}
