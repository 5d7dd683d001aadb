import { Body, Controller, Get, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { CreateTeamCommand } from '../application/commands/create-team/create-team.command';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { CreateTeamDto } from './identity.dto';
import { serializeTeam } from './identity.serializers';

@ApiTags('Teams')
@ApiBearerAuth()
@Controller('api/0')
export class TeamsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/teams')
  @RequireScopes('team:read')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
  ) {
    const rows = await this.repository.listTeams(this.database, organization.id, principal.userId, query || undefined, page.offset, page.fetchLimit);
    return page.respond(rows).map((team) => serializeTeam(team, organization.scopes));
  }

  @Post('organizations/:organization_id_or_slug/teams')
  @RequireScopes('team:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateTeamDto) {
    const teamId = await this.commands.execute<CreateTeamCommand, string>(new CreateTeamCommand(organization.id, body.name, body.slug, principal.userId));
    const team = await this.repository.findTeam(this.database, organization.id, teamId, principal.userId);
    return serializeTeam(team!, organization.scopes);
  }

  @Get('teams/:organization_id_or_slug/:team_id_or_slug')
  @RequireScopes('team:read')
  async detail(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('team_id_or_slug') teamIdOrSlug: string,
  ) {
    const team = await this.repository.findTeam(this.database, organization.id, teamIdOrSlug, principal.userId);
    if (!team) throw new NotFoundException();
    return serializeTeam(team, organization.scopes);
  }
}
