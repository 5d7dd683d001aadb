import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { deleteIssues, lockIssues } from '../../../infrastructure/lock-issues';
import { DeleteIssueCommand } from './delete-issue.command';

@CommandHandler(DeleteIssueCommand)
export class DeleteIssueHandler implements ICommandHandler<DeleteIssueCommand, void> {
  constructor(private readonly database: Database) {}

  async execute({ organizationId, issueIds, projectId }: DeleteIssueCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      await deleteIssues(tx, await lockIssues(tx, organizationId, issueIds, projectId));
    });
  }
}
