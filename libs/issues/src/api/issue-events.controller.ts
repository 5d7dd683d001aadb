import { Controller, Get, Inject, NotFoundException, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, Database, eventTimeRange, list, one, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { ProjectOwnership, type ProjectSummary, requireProject } from '@faultline/projects';
import { ownershipSubjectOf } from '../domain';
import { parseEventSearch } from '../application/queries/event-search';
import { EventSearchReader } from '../infrastructure/event-search.repository';
import { type ErrorEventRow, IssueReadModel, type IssueRow } from '../infrastructure/issue-read-model.repository';
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
    private readonly search: EventSearchReader,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly database: Database,
    private readonly ownership: ProjectOwnership,
  ) {}

  /**
   * Newest first; `query` (Sentry's event search), `statsPeriod` or `start` and `end`, and
   * `environment` narrow them, through the one event search.
   */
  @Get('organizations/:organization_id_or_slug/issues/:issue_id/events')
  @RequireScopes('event:read')
  async issueEvents(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Paginate() page: Pagination,
    @Query('full') full?: string,
    @Query('query') query?: string | string[],
    @Query('statsPeriod') statsPeriod?: string | string[],
    @Query('start') start?: string | string[],
    @Query('end') end?: string | string[],
    @Query('environment') environment?: string | string[],
  ) {
    const issue = await this.issue(organization, issueId);
    const narrowed = [query, statsPeriod, start, end, environment].some((value) => value !== undefined && value !== '');
    const rows = narrowed
      ? await this.searched(issue, page, {
          query: one(query, 'query'),
          statsPeriod: one(statsPeriod, 'statsPeriod'),
          start: one(start, 'start'),
          end: one(end, 'end'),
          environments: list(environment),
        })
      : await this.readModel.events(issue.id, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => (isTrue(full) ? serializeEvent(row) : serializeEventSummary(row)));
  }

  private async searched(
    issue: IssueRow,
    page: Pagination,
    params: { query?: string; statsPeriod?: string; start?: string; end?: string; environments: string[] },
  ) {
    const now = this.clock.now();
    const search = parseEventSearch({ fields: ['id'], query: params.query, sort: [], now });
    const found = await this.search.search(search, {
      projectIds: [issue.project_id],
      issueId: issue.id,
      ...eventTimeRange(now, params, { unbounded: true }),
      environments: params.environments.filter((entry) => entry !== ''),
      projectSlugs: new Map([[issue.project_id, issue.project_slug]]),
      offset: page.offset,
      limit: page.fetchLimit,
    });
    return this.readModel.eventsByIds(
      issue.id,
      found.map((row) => String(row.c0)),
    );
  }

  /** `latest`, `oldest` (Sentry's `recommended` is the latest here) or an event id of the issue. */
  @Get('organizations/:organization_id_or_slug/issues/:issue_id/events/:event_id')
  @RequireScopes('event:read')
  async issueEvent(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string, @Param('event_id') eventId: string) {
    const issue = await this.issue(organization, issueId);
    const event =
      eventId === 'latest' || eventId === 'recommended'
        ? await this.readModel.edgeEvent(issue, 'latest')
        : eventId === 'oldest'
          ? await this.readModel.edgeEvent(issue, 'oldest')
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

  /** Sentry's event JSON (the web client's "JSON" link): the event as it was stored after processing. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/events/:event_id/json')
  @RequireScopes('event:read', 'project:read')
  async projectEventJson(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
  ) {
    const { event } = await this.storedEvent(organization, projectIdOrSlug, eventId);
    return {
      event_id: event.event_id,
      project: Number(event.project_id),
      ...event.data,
      fingerprint: event.grouping_hash ? [event.grouping_hash] : [],
    };
  }

  /**
   * Sentry's event owners: the owners of the ownership rules the event matches, the rule that takes
   * precedence (the last matching one) first, and those rules.
   */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/events/:event_id/owners')
  @RequireScopes('event:read', 'project:read')
  async projectEventOwners(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
  ) {
    const { project, event } = await this.storedEvent(organization, projectIdOrSlug, eventId);
    const tags = serializeEventSummary(event).tags.map(({ key, value }) => [key, value] as const);
    const { owners, rules } = await this.ownership.ownersOf(this.database, project.id, ownershipSubjectOf(event.data, tags));
    return {
      owners: owners.map(({ type, id, name, email }) => (type === 'user' ? { type, id, name, email } : { type, id, name })),
      rule: rules[0]?.matcher ?? null,
      rules,
    };
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

  /** A stored event of the organization's project, or 404. */
  private async storedEvent(organization: OrganizationAccess, projectIdOrSlug: string, eventId: string) {
    const project = await this.project(organization, projectIdOrSlug);
    const event = await this.readModel.event({ projectId: project.id }, eventId);
    if (!event) throw new NotFoundException();
    return { project, event };
  }
}
