import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
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
import { ChangeTeamCommand } from '../application/commands/change-team/change-team.command';
import { CreateTeamCommand } from '../application/commands/create-team/create-team.command';
import { DeleteTeamCommand } from '../application/commands/delete-team/delete-team.command';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { CreateTeamDto } from './identity.dto';
import { serializeMember, serializeTeam } from './identity.serializers';

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

  /** Deletes the team and its memberships; its projects stay with the organization. */
  @Delete('teams/:organization_id_or_slug/:team_id_or_slug')
  @HttpCode(204)
  @RequireScopes('team:admin')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('team_id_or_slug') teamIdOrSlug: string): Promise<void> {
    const team = await this.team(organization, teamIdOrSlug);
    await this.commands.execute(new DeleteTeamCommand(organization.id, team.id));
  }

  @Get('teams/:organization_id_or_slug/:team_id_or_slug/members')
  @RequireScopes('team:read')
  async members(@CurrentOrganization() organization: OrganizationAccess, @Param('team_id_or_slug') teamIdOrSlug: string, @Paginate() page: Pagination) {
    const team = await this.team(organization, teamIdOrSlug);
    const rows = await this.repository.listTeamMembers(this.database, organization.id, team.id, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeMember);
  }

  /** Sentry's OrganizationMemberTeamDetails: adds a member to a team (team:write). */
  @Post('organizations/:organization_id_or_slug/members/:member_id/teams/:team_id_or_slug')
  @HttpCode(201)
  @RequireScopes('team:write')
  async join(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string, @Param('team_id_or_slug') teamIdOrSlug: string) {
    const team = await this.changeMembership(organization, memberId, teamIdOrSlug, 'addMembers');
    return serializeTeam(team, organization.scopes);
  }

  @Delete('organizations/:organization_id_or_slug/members/:member_id/teams/:team_id_or_slug')
  @RequireScopes('team:write')
  async leave(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string, @Param('team_id_or_slug') teamIdOrSlug: string) {
    const team = await this.changeMembership(organization, memberId, teamIdOrSlug, 'removeMembers');
    return serializeTeam(team, organization.scopes);
  }

  private async changeMembership(organization: OrganizationAccess, memberId: string, teamIdOrSlug: string, kind: 'addMembers' | 'removeMembers') {
    const team = await this.team(organization, teamIdOrSlug);
    // Another organization's member, or none, is a 404 as for every other lookup.
    if (!(await this.repository.findMember(this.database, organization.id, memberId))) throw new NotFoundException();
    await this.commands.execute(new ChangeTeamCommand(organization.id, team.id, [{ kind, memberIds: [memberId] }]));
    return (await this.repository.findTeam(this.database, organization.id, team.id))!;
  }

  private async team(organization: OrganizationAccess, teamIdOrSlug: string) {
    const team = await this.repository.findTeam(this.database, organization.id, teamIdOrSlug);
    if (!team) throw new NotFoundException();
    return team;
  }
}
