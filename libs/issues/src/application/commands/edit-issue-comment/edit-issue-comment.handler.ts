import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import type { IssueComment } from '../../../domain';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { EditIssueCommentCommand } from './edit-issue-comment.command';

@CommandHandler(EditIssueCommentCommand)
export class EditIssueCommentHandler implements ICommandHandler<EditIssueCommentCommand, IssueComment> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueId, commentId, text, actor }: EditIssueCommentCommand): Promise<IssueComment> {
    const at = this.clock.now().toISOString();
    return this.database.transaction(async (tx) => {
      await lockIssues(tx, organizationId, [issueId]);
      const decided = await this.issues.decide(tx, issueId, (issue) => issue.editComment(actor, at, commentId, text));
      if (!decided) throw DomainError.notFound();
      return decided.aggregate.comment(commentId) as IssueComment;
    });
  }
}
