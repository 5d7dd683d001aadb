import { Body, Controller, Get, NotFoundException, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { CurrentOrganization, Database, IfPresent, type OrganizationAccess, RequireScopes } from '@faultline/platform';
import { UpdateProjectOwnershipCommand } from '../application/commands/update-project-ownership/update-project-ownership.command';
import { AUTO_ASSIGNMENT } from '../domain/project-ownership';
import { type ProjectOwnershipRow, ProjectOwnershipRepository } from '../infrastructure/project-ownership.repository';
import { ProjectsRepository } from '../infrastructure/projects.repository';

export class UpdateProjectOwnershipDto {
  @ApiPropertyOptional({ description: 'The rules, one a line: `<type>:<pattern> <owner>…` (docs/issues-and-search.md, "Ownership rules").' })
  @IfPresent()
  @IsString()
  raw?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  fallthrough?: boolean;

  @ApiPropertyOptional({ enum: [AUTO_ASSIGNMENT.issueOwner, AUTO_ASSIGNMENT.off] })
  @IfPresent()
  @IsString()
  autoAssignment?: string;

  @ApiPropertyOptional({ description: 'Only false: CODEOWNERS files are not imported.' })
  @IfPresent()
  @IsBoolean()
  codeownersAutoSync?: boolean;
}

/** Sentry's project ownership: the issue owner rules and whether new issues are assigned by them. */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0/projects/:organization_id_or_slug/:project_id_or_slug/ownership')
export class ProjectOwnershipController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
    private readonly ownership: ProjectOwnershipRepository,
  ) {}

  @Get()
  @RequireScopes('project:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string) {
    const projectId = await this.projectId(organization, idOrSlug);
    return serializeOwnership(await this.ownership.find(this.database, projectId));
  }

  @Put()
  @RequireScopes('project:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Body() body: UpdateProjectOwnershipDto,
  ) {
    const projectId = await this.projectId(organization, idOrSlug);
    await this.commands.execute(new UpdateProjectOwnershipCommand(organization.id, projectId, body));
    return serializeOwnership(await this.ownership.find(this.database, projectId));
  }

  private async projectId(organization: OrganizationAccess, idOrSlug: string): Promise<string> {
    const project = await this.projects.find(this.database, organization.id, idOrSlug);
    if (!project) throw new NotFoundException();
    return project.id;
  }
}

function serializeOwnership(row: ProjectOwnershipRow) {
  return {
    raw: row.raw,
    fallthrough: row.fallthrough,
    dateCreated: row.dateCreated?.toISOString() ?? null,
    lastUpdated: row.lastUpdated?.toISOString() ?? null,
    isActive: true,
    autoAssignment: row.autoAssignment ? AUTO_ASSIGNMENT.issueOwner : AUTO_ASSIGNMENT.off,
    codeownersAutoSync: false,
    schema: row.schema,
  };
}
