import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Param, Put } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, RequireScopes, IfPresent } from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, Length } from 'class-validator';
import { INBOUND_FILTER_LIMITS } from '../domain';
import { InboundFiltersRepository } from '../infrastructure/inbound-filters.repository';

const FILTER_IDS = ['localhost', 'error-messages', 'releases'] as const;
type FilterId = (typeof FILTER_IDS)[number];

export class UpdateInboundFilterDto {
  @ApiPropertyOptional({ description: 'localhost: turn the filter on or off; the pattern filters are active while they have patterns' })
  @IfPresent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: INBOUND_FILTER_LIMITS.maxPatterns,
    description: `error-messages and releases: glob patterns (\`*\`, \`?\`), each of 1 to ${INBOUND_FILTER_LIMITS.maxPatternLength} characters`,
  })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(INBOUND_FILTER_LIMITS.maxPatterns, { message: `at most ${INBOUND_FILTER_LIMITS.maxPatterns} patterns` })
  @IsString({ each: true })
  @Length(1, INBOUND_FILTER_LIMITS.maxPatternLength, {
    each: true,
    message: `each pattern must be 1 to ${INBOUND_FILTER_LIMITS.maxPatternLength} characters`,
  })
  value?: string[];
}

/**
 * Inbound data filters on Sentry's paths: events they match are dropped at processing and counted
 * as `blacklisted` in stats/.
 */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class InboundFiltersController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly filters: InboundFiltersRepository,
  ) {}

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/filters')
  @RequireScopes('project:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string) {
    const project = await this.project(organization, idOrSlug);
    const filters = await this.filters.find(this.database, project.id);
    return [
      { id: 'localhost', active: filters.localhost },
      { id: 'error-messages', active: filters.errorMessages.length > 0, value: filters.errorMessages },
      { id: 'releases', active: filters.releases.length > 0, value: filters.releases },
    ];
  }

  @Put('projects/:organization_id_or_slug/:project_id_or_slug/filters/:filter_id')
  @HttpCode(204)
  @RequireScopes('project:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Param('filter_id') filterId: string,
    @Body() body: UpdateInboundFilterDto,
  ): Promise<void> {
    if (!FILTER_IDS.includes(filterId as FilterId)) throw new NotFoundException();
    const project = await this.project(organization, idOrSlug);
    const id = filterId as FilterId;
    if (id === 'localhost') {
      if (body.value !== undefined) throw badBody('localhost takes only active');
      if (body.active === undefined) throw badBody('active is required');
      await this.filters.save(this.database, project.id, { localhost: body.active });
      return;
    }
    const patterns = body.active === false ? [] : body.value;
    if (patterns === undefined) throw badBody('value (a list of patterns) is required');
    await this.filters.save(this.database, project.id, id === 'error-messages' ? { errorMessages: patterns } : { releases: patterns });
  }

  private project(organization: OrganizationAccess, idOrSlug: string): Promise<ProjectSummary> {
    return requireProject(this.queries, organization.id, idOrSlug);
  }
}

const badBody = (detail: string) => new BadRequestException({ detail });
