/** Bookmarks or un-bookmarks issues of an organization for one user (Sentry's `isBookmarked`). */
export class BookmarkIssuesCommand {
  constructor(
    readonly organizationId: string,
    readonly issueIds: readonly string[],
    /** The bookmarking user; an organization token has none, and cannot bookmark. */
    readonly userId: string | undefined,
    readonly bookmarked: boolean,
    /** When set, every issue must belong to this project. */
    readonly projectId?: string,
  ) {}
}
