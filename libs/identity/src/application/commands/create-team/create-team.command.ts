export class CreateTeamCommand {
  constructor(
    readonly organizationId: string,
    readonly name: string | undefined,
    readonly slug: string | undefined,
    /** The creating user joins the team, as in Sentry. */
    readonly creatorUserId?: string,
  ) {}
}
