/** Every project of an organization; answers ProjectSummary[] (empty for an unknown organization). */
export class FindOrganizationProjectsQuery {
  constructor(readonly organizationId: string) {}
}
