/**
 * Asked when an issue's detail is served: the tickets linked to it in external trackers. The
 * issues context does not know who keeps them; the context that does (integrations) answers it,
 * and without one the issue simply has none.
 */
export class IssueExternalLinksQuery {
  constructor(
    readonly organizationId: string,
    readonly issueId: string,
  ) {}
}

/** A link as issue detail shows it (`externalIssues`), in Sentry's platform-external-issue shape. */
export interface IssueExternalLink {
  readonly id: string;
  readonly issueId: string;
  readonly serviceType: string;
  readonly displayName: string;
  readonly webUrl: string;
  readonly [field: string]: unknown;
}
