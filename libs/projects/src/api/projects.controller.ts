import { Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  APP_CONFIG,
  type AppConfig,
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
  dataPrivacyChanges,
} from '@faultline/platform';
import { ChangeProjectTeamCommand } from '../application/commands/change-project-team/change-project-team.command';
import { CreateProjectCommand } from '../application/commands/create-project/create-project.command';
import { DeleteProjectCommand } from '../application/commands/delete-project/delete-project.command';
import { UpdateProjectCommand } from '../application/commands/update-project/update-project.command';
import { type ProjectRow, ProjectsRepository } from '../infrastructure/projects.repository';
import { CreateProjectDto, UpdateProjectDto } from './projects.dto';
import { serializeProject, serializeProjectDetail } from './projects.serializers';

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class ProjectsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('teams/:organization_id_or_slug/:team_id_or_slug/projects')
  @RequireScopes('project:write')
  async create(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('team_id_or_slug') team: string,
    @Body() body: CreateProjectDto,
  ) {
    const projectId = await this.commands.execute<CreateProjectCommand, string>(
      new CreateProjectCommand(organization.id, team, body.name, body.slug, body.platform ?? null),
    );
    return serializeProjectDetail(await this.load(organization, projectId, principal), organization, this.config.publicUrl);
  }

  @Get('organizations/:organization_id_or_slug/projects')
  @RequireScopes('org:read')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
  ) {
    const rows = await this.repository.list(this.database, organization.id, principal.userId, query || undefined, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => serializeProject(row, organization));
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug')
  @RequireScopes('project:read')
  async detail(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
  ) {
    return serializeProjectDetail(await this.load(organization, idOrSlug, principal), organization, this.config.publicUrl);
  }

  @Put('projects/:organization_id_or_slug/:project_id_or_slug')
  @RequireScopes('project:read')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
    @Body() body: UpdateProjectDto,
  ) {
    const project = await this.load(organization, idOrSlug, principal);
    await this.commands.execute(
      new UpdateProjectCommand(
        organization.id,
        project.id,
        { ...body, ...dataPrivacyChanges(body) },
        {
          userId: principal.userId,
          canWrite: organization.scopes.has('project:write'),
          isOwner: organization.role === 'owner' || principal.isSuperuser,
        },
      ),
    );
    return serializeProjectDetail(await this.load(organization, project.id, principal), organization, this.config.publicUrl);
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug')
  @HttpCode(204)
  @RequireScopes('project:admin')
  async remove(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
  ) {
    const project = await this.load(organization, idOrSlug, principal);
    await this.commands.execute(new DeleteProjectCommand(organization.id, project.id));
  }

  /** Gives a team access to the project (Sentry's ProjectTeamDetails). */
  @Post('projects/:organization_id_or_slug/:project_id_or_slug/teams/:team_id_or_slug')
  @HttpCode(201)
  @RequireScopes('project:write')
  async addTeam(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
    @Param('team_id_or_slug') team: string,
  ) {
    return this.changeTeam(organization, principal, idOrSlug, team, true);
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/teams/:team_id_or_slug')
  @RequireScopes('project:write')
  async removeTeam(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
    @Param('team_id_or_slug') team: string,
  ) {
    return this.changeTeam(organization, principal, idOrSlug, team, false);
  }

  private async changeTeam(organization: OrganizationAccess, principal: Principal, idOrSlug: string, team: string, add: boolean) {
    const project = await this.load(organization, idOrSlug, principal);
    await this.commands.execute(new ChangeProjectTeamCommand(organization.id, project.id, team, add));
    return serializeProjectDetail(await this.load(organization, project.id, principal), organization, this.config.publicUrl);
  }

  private async load(organization: OrganizationAccess, idOrSlug: string, principal: Principal): Promise<ProjectRow> {
    const project = await this.repository.find(this.database, organization.id, idOrSlug, principal.userId);
    if (!project) throw new NotFoundException();
    return project;
  }
}
