import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { EventAttachmentsRepository } from '../../../infrastructure/event-attachments.repository';
import { deleteIssues, lockIssues } from '../../../infrastructure/lock-issues';
import { DeleteIssueCommand } from './delete-issue.command';

@CommandHandler(DeleteIssueCommand)
export class DeleteIssueHandler implements ICommandHandler<DeleteIssueCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly attachments: EventAttachmentsRepository,
  ) {}

  /** The events go with their issues (cascade); their attachments first, so their bytes are freed in the same transaction. */
  async execute({ organizationId, issueIds, projectId }: DeleteIssueCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const ids = await lockIssues(tx, organizationId, issueIds, projectId);
      await this.attachments.deleteOfIssues(tx, ids);
      await deleteIssues(tx, ids);
    });
  }
}
