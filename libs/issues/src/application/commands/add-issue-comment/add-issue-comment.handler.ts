import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import type { IssueComment } from '../../../domain';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { AddIssueCommentCommand } from './add-issue-comment.command';

@CommandHandler(AddIssueCommentCommand)
export class AddIssueCommentHandler implements ICommandHandler<AddIssueCommentCommand, IssueComment> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueId, text, actor }: AddIssueCommentCommand): Promise<IssueComment> {
    const commentId = randomUUID();
    const at = this.clock.now().toISOString();
    return this.database.transaction(async (tx) => {
      await lockIssues(tx, organizationId, [issueId]);
      const decided = await this.issues.decide(tx, issueId, (issue) => issue.addComment(actor, at, commentId, text));
      if (!decided) throw DomainError.notFound();
      return decided.aggregate.comment(commentId) as IssueComment;
    });
  }
}
