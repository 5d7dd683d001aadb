import { BadRequestException, Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { type ArtifactBundleRow, ArtifactsRepository } from '../infrastructure/artifacts.repository';

/** What a search may hold: a release name is at most 250 characters (Sentry's limit). */
const MAX_FILTER_LENGTH = 250;

/** Sentry's project artifact bundles: the source-map bundles uploaded for a project, newest first. */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class ArtifactBundlesController {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    private readonly queries: QueryBus,
  ) {}

  /** `query` finds a release or bundle id containing it (Sentry's); `release` (Faultline's) only that release's bundles. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/artifact-bundles')
  @RequireScopes('project:read', 'project:releases')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
    @Query('release') release?: string,
  ) {
    for (const value of [query, release]) {
      if (value !== undefined && (typeof value !== 'string' || value.length > MAX_FILTER_LENGTH)) {
        throw new BadRequestException({ detail: `query and release are texts of at most ${MAX_FILTER_LENGTH} characters.` });
      }
    }
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rows = await this.artifacts.listProjectBundles(
      this.database,
      organization.id,
      project.id,
      { release: release || undefined, query: query || undefined },
      page.offset,
      page.fetchLimit,
    );
    return page.respond(rows).map(serializeBundle);
  }
}

export function serializeBundle(row: ArtifactBundleRow) {
  const date = row.date_added.toISOString();
  return {
    bundleId: row.bundle_id,
    release: row.release,
    dist: row.dist,
    associations: row.release === null ? [] : [{ release: row.release, dist: row.dist }],
    fileCount: row.file_count,
    size: row.size,
    date,
    dateModified: date,
  };
}
