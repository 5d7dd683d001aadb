/**
 * Finds an issue of an organization by numeric id or short id ("WEB-3"); answers IssueSummary or
 * null (no such issue, or one of another organization: callers answer 404 either way).
 */
export class FindIssueQuery {
  constructor(
    readonly organizationId: string,
    readonly issueIdOrShortId: string,
  ) {}
}

export interface IssueSummary {
  readonly id: string;
  readonly shortId: string;
  readonly projectId: string;
  readonly projectSlug: string;
  readonly title: string;
  readonly status: string;
}
