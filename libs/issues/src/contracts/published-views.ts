/** The views other contexts may read in SQL: issues' published reads (see docs/extending.md). */
export const ISSUES_PUBLISHED_VIEWS = ['issues.issue_directory'] as const;
