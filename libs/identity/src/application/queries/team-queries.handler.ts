import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { FindTeamQuery, FindUserTeamsQuery, type TeamSummary } from '../../contracts/queries';
import { IdentityRepository } from '../../infrastructure/identity.repository';

@QueryHandler(FindTeamQuery)
export class FindTeamHandler implements IQueryHandler<FindTeamQuery, TeamSummary | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  async execute({ organizationId, teamIdOrSlug }: FindTeamQuery): Promise<TeamSummary | null> {
    const team = await this.repository.findTeam(this.database, organizationId, teamIdOrSlug);
    return team ? { id: team.id, slug: team.slug, name: team.name } : null;
  }
}

@QueryHandler(FindUserTeamsQuery)
export class FindUserTeamsHandler implements IQueryHandler<FindUserTeamsQuery, TeamSummary[]> {
  constructor(private readonly database: Database) {}

  execute({ organizationId, userId }: FindUserTeamsQuery): Promise<TeamSummary[]> {
    return this.database.query<TeamSummary>(
      `SELECT t.id, t.slug, t.name FROM identity.teams t
       JOIN identity.team_members tm ON tm.team_id = t.id JOIN identity.organization_members m ON m.id = tm.member_id
       WHERE t.organization_id = $1 AND m.user_id = $2 ORDER BY t.slug`,
      [organizationId, userId],
    );
  }
}
