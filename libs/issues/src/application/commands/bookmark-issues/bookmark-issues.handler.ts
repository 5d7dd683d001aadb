import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { IssueBookmarksRepository } from '../../../infrastructure/issue-bookmarks.repository';
import { IssueReadModel } from '../../../infrastructure/issue-read-model.repository';
import { BookmarkIssuesCommand } from './bookmark-issues.command';

/**
 * A bookmark is the user's, not the issue's: it records no event on the issue's stream, as in
 * Sentry, where bookmarking leaves no activity. An id that is not an issue of the organization
 * (and project) is a 404 and nothing changes.
 */
@CommandHandler(BookmarkIssuesCommand)
export class BookmarkIssuesHandler implements ICommandHandler<BookmarkIssuesCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly readModel: IssueReadModel,
    private readonly bookmarks: IssueBookmarksRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueIds, userId, bookmarked, projectId }: BookmarkIssuesCommand): Promise<void> {
    if (!userId) throw DomainError.invalid('isBookmarked: only a user can bookmark an issue; an organization token has no user.');
    const unique = [...new Set(issueIds)];
    const at = this.clock.now();
    await this.database.transaction(async (tx) => {
      const existing = await this.readModel.existingIds(organizationId, unique, projectId, tx);
      if (existing.length !== unique.length) throw DomainError.notFound();
      await this.bookmarks.set(tx, existing, userId, bookmarked, at);
    });
  }
}
