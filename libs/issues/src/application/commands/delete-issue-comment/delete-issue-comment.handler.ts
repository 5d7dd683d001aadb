import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { DeleteIssueCommentCommand } from './delete-issue-comment.command';

@CommandHandler(DeleteIssueCommentCommand)
export class DeleteIssueCommentHandler implements ICommandHandler<DeleteIssueCommentCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueId, commentId, actor }: DeleteIssueCommentCommand): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.database.transaction(async (tx) => {
      await lockIssues(tx, organizationId, [issueId]);
      const decided = await this.issues.decide(tx, issueId, (issue) => issue.deleteComment(actor, at, commentId));
      if (!decided) throw DomainError.notFound();
    });
  }
}
