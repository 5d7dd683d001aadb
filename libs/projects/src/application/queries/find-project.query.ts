/** Finds a project of an organization by numeric id or slug; answers ProjectSummary or null. */
export class FindProjectQuery {
  constructor(
    readonly organizationId: string,
    readonly projectIdOrSlug: string,
  ) {}
}

export interface ProjectSummary {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly platform: string | null;
  readonly features: readonly string[];
}
