/** The DSN keys of a project, found by organization and project id or slug; answers ProjectKeySummary[] or null. */
export class FindProjectKeysQuery {
  constructor(
    readonly organizationIdOrSlug: string,
    readonly projectIdOrSlug: string,
  ) {}
}

export interface ProjectKeySummary {
  readonly publicKey: string;
  readonly label: string;
  readonly dsn: string;
}
