import { Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig, CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { CreateProjectKeyCommand } from '../application/commands/create-project-key/create-project-key.command';
import { DeleteProjectKeyCommand } from '../application/commands/delete-project-key/delete-project-key.command';
import { UpdateProjectKeyCommand } from '../application/commands/update-project-key/update-project-key.command';
import { type ProjectKeyRow, ProjectsRepository } from '../infrastructure/projects.repository';
import { CreateProjectKeyDto, UpdateProjectKeyDto } from './projects.dto';
import { serializeProjectKey } from './projects.serializers';

/** DSN keys of a project. A key's id in the API is its public part, as in Sentry. */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class ProjectKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/keys')
  @RequireScopes('project:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Paginate() page: Pagination) {
    const projectId = await this.projectId(organization, idOrSlug);
    const keys = await this.repository.listKeys(this.database, projectId, page.offset, page.fetchLimit);
    return page.respond(keys).map((key) => serializeProjectKey(key, this.config.publicUrl));
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/keys')
  @RequireScopes('project:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Body() body: CreateProjectKeyDto) {
    const projectId = await this.projectId(organization, idOrSlug);
    const key = await this.commands.execute<CreateProjectKeyCommand, ProjectKeyRow>(
      new CreateProjectKeyCommand(projectId, body.name ?? 'Default', body.rateLimit),
    );
    return serializeProjectKey(key, this.config.publicUrl);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/keys/:key_id')
  @RequireScopes('project:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Param('key_id') keyId: string) {
    const key = await this.repository.findKey(this.database, await this.projectId(organization, idOrSlug), keyId);
    if (!key) throw new NotFoundException();
    return serializeProjectKey(key, this.config.publicUrl);
  }

  /** SDK requests see a change at once in this process, within 5 seconds in others (their key cache). */
  @Put('projects/:organization_id_or_slug/:project_id_or_slug/keys/:key_id')
  @RequireScopes('project:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Param('key_id') keyId: string,
    @Body() body: UpdateProjectKeyDto,
  ) {
    const projectId = await this.projectId(organization, idOrSlug);
    const key = await this.commands.execute<UpdateProjectKeyCommand, ProjectKeyRow>(new UpdateProjectKeyCommand(projectId, keyId, body));
    return serializeProjectKey(key, this.config.publicUrl);
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/keys/:key_id')
  @HttpCode(204)
  @RequireScopes('project:admin')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Param('key_id') keyId: string) {
    await this.commands.execute(new DeleteProjectKeyCommand(await this.projectId(organization, idOrSlug), keyId));
  }

  private async projectId(organization: OrganizationAccess, idOrSlug: string): Promise<string> {
    const project = await this.repository.find(this.database, organization.id, idOrSlug);
    if (!project) throw new NotFoundException();
    return project.id;
  }
}
