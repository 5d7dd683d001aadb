/** Gives a team access to a project (`add`) or takes it away (Sentry's project team details). */
export class ChangeProjectTeamCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly teamIdOrSlug: string,
    readonly add: boolean,
  ) {}
}
