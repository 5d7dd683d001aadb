import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { lockIssues } from '../lock-issues';
import { DeleteIssueCommand } from './delete-issue.command';

@CommandHandler(DeleteIssueCommand)
export class DeleteIssueHandler implements ICommandHandler<DeleteIssueCommand, void> {
  constructor(private readonly database: Database) {}

  async execute({ organizationId, issueIds, projectId }: DeleteIssueCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const ids = await lockIssues(tx, organizationId, issueIds, projectId);
      // error_events and issue_users go with their issue (ON DELETE CASCADE).
      await tx.execute(`DELETE FROM issues.issues WHERE id = ANY($1::bigint[])`, [ids]);
    });
  }
}
