/** Finds a team of an organization by numeric id or slug; answers TeamSummary or null. */
export class FindTeamQuery {
  constructor(
    readonly organizationId: string,
    readonly teamIdOrSlug: string,
  ) {}
}

export interface TeamSummary {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

/** Finds the teams a user belongs to in an organization; answers TeamSummary[]. */
export class FindUserTeamsQuery {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
  ) {}
}
