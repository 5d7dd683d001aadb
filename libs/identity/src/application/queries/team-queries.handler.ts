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
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  execute({ organizationId, userId }: FindUserTeamsQuery): Promise<TeamSummary[]> {
    return this.repository.userTeams(this.database, organizationId, userId);
  }
}
