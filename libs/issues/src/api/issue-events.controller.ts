import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { type ErrorEventRow, IssueReadModel, type IssueRow } from '../infrastructure/issue-read-model';
import { serializeEvent, serializeEventSummary } from './events.serializers';

const isTrue = (value: string | undefined): boolean => value === 'true' || value === '1';

/**
 * The stored events of issues and projects. An issue's events are read only after the issue was
 * found among the organization's, a project's only after the project was.
 */
@ApiTags('Events')
@ApiBearerAuth()
@Controller('api/0')
export class IssueEventsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly readModel: IssueReadModel,
  ) {}

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/events')
  @RequireScopes('event:read')
  async issueEvents(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Paginate() page: Pagination,
    @Query('full') full?: string,
  ) {
    const issue = await this.issue(organization, issueId);
    const rows = await this.readModel.events(issue.id, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => (isTrue(full) ? serializeEvent(row) : serializeEventSummary(row)));
  }

  /** `latest`, `oldest` (Sentry's `recommended` is the latest here) or an event id of the issue. */
  @Get('organizations/:organization_id_or_slug/issues/:issue_id/events/:event_id')
  @RequireScopes('event:read')
  async issueEvent(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Param('event_id') eventId: string,
  ) {
    const issue = await this.issue(organization, issueId);
    const event =
      eventId === 'latest' || eventId === 'recommended'
        ? await this.readModel.edgeEvent(issue.id, 'latest')
        : eventId === 'oldest'
          ? await this.readModel.edgeEvent(issue.id, 'oldest')
          : await this.readModel.event({ issueId: issue.id }, eventId);
    return this.full(event);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/events')
  @RequireScopes('event:read', 'project:read')
  async projectEvents(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
    @Query('full') full?: string,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    const rows = await this.readModel.projectEvents(project.id, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => (isTrue(full) ? serializeEvent(row) : serializeEventSummary(row)));
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/events/:event_id')
  @RequireScopes('event:read', 'project:read')
  async projectEvent(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    return this.full(await this.readModel.event({ projectId: project.id }, eventId));
  }

  private async full(event: ErrorEventRow | null) {
    if (!event) throw new NotFoundException();
    return serializeEvent(event, await this.readModel.neighbours(event));
  }

  private issue(organization: OrganizationAccess, issueId: string): Promise<IssueRow> {
    return this.readModel.require(organization.id, issueId);
  }

  private project(organization: OrganizationAccess, idOrSlug: string): Promise<ProjectSummary> {
    return requireProject(this.queries, organization.id, idOrSlug);
  }
}
