import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, isNumericId } from '@faultline/kernel';
import {
  APP_CONFIG,
  type AppConfig,
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  eventTimeRange,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { BookmarkIssuesCommand } from '../application/commands/bookmark-issues/bookmark-issues.command';
import { AddIssueCommentCommand } from '../application/commands/add-issue-comment/add-issue-comment.command';
import { DeleteIssueCommand } from '../application/commands/delete-issue/delete-issue.command';
import { DeleteIssueCommentCommand } from '../application/commands/delete-issue-comment/delete-issue-comment.command';
import { EditIssueCommentCommand } from '../application/commands/edit-issue-comment/edit-issue-comment.command';
import { type MergedIssues, MergeIssuesCommand } from '../application/commands/merge-issues/merge-issues.command';
import { type UnmergedIssue, UnmergeIssueCommand } from '../application/commands/unmerge-issue/unmerge-issue.command';
import { IssueMergesRepository } from '../infrastructure/issue-merges.repository';
import { serializeEvent } from './events.serializers';
import { type IssueChanges, type IssueChangesResult, UpdateIssueCommand } from '../application/commands/update-issue/update-issue.command';
import { IssuePeople } from '../infrastructure/issue-people.repository';
import { type IssueExternalLink, IssueExternalLinksQuery } from '../application/queries/issue-external-links.query';
import { IssueBookmarksRepository } from '../infrastructure/issue-bookmarks.repository';
import { ISSUE_STATS_PERIODS, IssueReadModel, type IssueRow, type IssueStatsWindow, type IssueTimeRange } from '../infrastructure/issue-read-model.repository';
import { parseIssueSearch, parseIssueSort } from '../application/queries/issue-search';
import { type IssueComment, MAX_UNMERGE_HASHES } from '../domain';
import { IssueRepository } from '../infrastructure/issue.repository';
import { IssueCommentDto, UpdateIssueDto } from './issues.dto';
import { serializeActivity, serializeAssignee, serializeComment, serializeIssue, serializeIssueTagKey } from './issues.serializers';

const MAX_BULK_IDS = 1000;
/** `X-Hits` counts matches up to this many (`X-Max-Hits`), so a count costs at most this many rows. */
const MAX_HITS = 10_000;
const MAX_SIMILAR = 50;

const SEARCH_DOC =
  "Sentry's issue search: is:, assigned:, level:, environment:, release:, firstRelease:, firstSeen:/lastSeen:, timesSeen:, userCount:, has:, message:, " +
  'any other key:value as a tag, and free text (title, culprit, short id); ! negates, "…" quotes, [a, b] lists, * is a wildcard. Default is:unresolved; ' +
  'a key that cannot be answered is 400.';
const QueryParam = () => ApiQuery({ name: 'query', required: false, description: SEARCH_DOC });
const EnvironmentParam = () =>
  ApiQuery({ name: 'environment', required: false, type: [String], description: 'Only issues seen in one of these environments (repeat the parameter).' });
const SortParam = () => ApiQuery({ name: 'sort', required: false, enum: ['date', 'new', 'freq', 'user'] });
const IdsParam = () => ApiQuery({ name: 'id', required: true, type: [String], description: 'The issues to change (repeat the parameter).' });

/**
 * Sentry's issue endpoints: lists (organization and project), detail, update and delete, bulk
 * update and delete by `?id=`, and comments. Every issue is looked up within the organization's
 * projects, so another organization's issue is 404 like one that does not exist.
 */
@ApiTags('Issues')
@ApiBearerAuth()
@Controller('api/0')
export class IssuesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readModel: IssueReadModel,
    private readonly people: IssuePeople,
    private readonly bookmarks: IssueBookmarksRepository,
    private readonly database: Database,
    private readonly repository: IssueRepository,
    private readonly merges: IssueMergesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // ---- lists -------------------------------------------------------------------------------

  @Get('organizations/:organization_id_or_slug/issues')
  @RequireScopes('event:read')
  @QueryParam()
  @EnvironmentParam()
  @SortParam()
  @ApiQuery({ name: 'project', required: false, type: [String], description: 'Project ids (repeat the parameter); -1 means all.' })
  @ApiQuery({
    name: 'groupStatsPeriod',
    required: false,
    enum: ['', '24h', '14d', 'auto'],
    description: "Each issue's event counts (`stats`): hourly over 24h (the default), daily over 14d, none, or `auto` over `statsPeriod`.",
  })
  @ApiQuery({
    name: 'statsPeriod',
    required: false,
    description:
      'Only issues with events in the last period (a number and s, m, h, d or w: 24h, 14d); `count` is their events in it. Also the range of `groupStatsPeriod=auto` (default 14d).',
  })
  @ApiQuery({ name: 'start', required: false, description: 'With `end` instead of statsPeriod: only issues with events from this ISO 8601 time.' })
  @ApiQuery({ name: 'end', required: false, description: 'With `start`: only issues with events before this ISO 8601 time.' })
  async listOrganizationIssues(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
    @Query('sort') sort?: string,
    @Query('project') project?: string | string[],
    @Query('groupStatsPeriod') groupStatsPeriod?: string,
    @Query('statsPeriod') statsPeriod?: string,
    @Query('environment') environment?: string | string[],
    @Query('start') start?: string,
    @Query('end') end?: string,
  ) {
    const period = single(groupStatsPeriod, 'groupStatsPeriod');
    const rangePeriod = single(statsPeriod, 'statsPeriod');
    const stats = period === 'auto' ? autoStatsWindow(rangePeriod) : listStatsPeriod(period, 'groupStatsPeriod');
    const range = this.timeRange(rangePeriod, single(start, 'start'), single(end, 'end'));
    return this.list(organization, principal, page, { query, sort, environment }, projectIdsParam(project), stats, range);
  }

  /**
   * The stream's range as Sentry reads it (`statsPeriod`, or `start` and `end`; none, or an empty
   * `statsPeriod`: all time), its start moved up to the oldest event kept; a range wholly before
   * that is a 400.
   */
  private timeRange(statsPeriod: string | undefined, start: string | undefined, end: string | undefined): IssueTimeRange | undefined {
    if (statsPeriod === '') statsPeriod = undefined;
    if (statsPeriod === undefined && start === undefined && end === undefined) return undefined;
    const now = this.clock.now();
    const range = eventTimeRange(now, { statsPeriod, start, end });
    const oldest = new Date(now.getTime() - this.config.eventRetentionDays * 86_400_000).toISOString();
    if (range.end <= oldest) throw new BadRequestException({ detail: 'Invalid date range. Please try a more recent date range.' });
    return { start: range.start < oldest ? oldest : range.start, end: range.end };
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/issues')
  @RequireScopes('event:read')
  @QueryParam()
  @EnvironmentParam()
  @SortParam()
  @ApiQuery({
    name: 'statsPeriod',
    required: false,
    enum: ['', '24h', '14d'],
    description: "Each issue's event counts (`stats`): hourly over 24h (the default), daily over 14d, or none.",
  })
  async listProjectIssues(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
    @Query('sort') sort?: string,
    @Query('statsPeriod') statsPeriod?: string,
    @Query('environment') environment?: string | string[],
  ) {
    const stats = listStatsPeriod(single(statsPeriod, 'statsPeriod'), 'statsPeriod');
    const project = await this.project(organization, projectIdOrSlug);
    return this.list(organization, principal, page, { query, sort, environment }, [project.id], stats);
  }

  // ---- bulk --------------------------------------------------------------------------------

  @Put('organizations/:organization_id_or_slug/issues')
  @RequireScopes('event:write')
  @IdsParam()
  async bulkUpdateOrganizationIssues(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateIssueDto,
    @Query('id') id?: string | string[],
  ) {
    return this.bulkUpdate(organization, principal, idsParam(id), body);
  }

  @Put('projects/:organization_id_or_slug/:project_id_or_slug/issues')
  @RequireScopes('event:write')
  @IdsParam()
  async bulkUpdateProjectIssues(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Body() body: UpdateIssueDto,
    @Query('id') id?: string | string[],
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    return this.bulkUpdate(organization, principal, idsParam(id), body, project.id);
  }

  @Delete('organizations/:organization_id_or_slug/issues')
  @HttpCode(204)
  @RequireScopes('event:admin')
  @IdsParam()
  async bulkDeleteOrganizationIssues(@CurrentOrganization() organization: OrganizationAccess, @Query('id') id?: string | string[]) {
    await this.commands.execute(new DeleteIssueCommand(organization.id, idsParam(id)));
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/issues')
  @HttpCode(204)
  @RequireScopes('event:admin')
  @IdsParam()
  async bulkDeleteProjectIssues(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Query('id') id?: string | string[],
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    await this.commands.execute(new DeleteIssueCommand(organization.id, idsParam(id), project.id));
  }

  // ---- one issue ---------------------------------------------------------------------------

  @Get('organizations/:organization_id_or_slug/issues/:issue_id')
  @RequireScopes('event:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Param('issue_id') issueId: string) {
    return this.detailOf(organization, await this.issue(organization, issueId), principal);
  }

  /** The issue as its detail shows it: with its graphs, tag keys, activity and linked tickets. */
  private async detailOf(organization: OrganizationAccess, issue: IssueRow, principal: Principal) {
    const stats = await this.readModel.stats([issue.id], [ISSUE_STATS_PERIODS['24h'], ISSUE_STATS_PERIODS['30d']]);
    const tags = (await this.readModel.tagKeys(issue.id)).map(serializeIssueTagKey);
    const isBookmarked = (await this.bookmarks.bookmarkedOf(principal.userId, [issue.id])).has(issue.id);
    return {
      ...serializeIssue(issue, organization, this.config.publicUrl, stats.get(issue.id), { isBookmarked }),
      tags: tags.sort((a, b) => a.name.localeCompare(b.name)),
      activity: serializeActivity(await this.repository.history(this.database, String(issue.id))),
      externalIssues: await this.externalLinks(organization.id, String(issue.id)),
    };
  }

  /** Tickets linked to the issue, from whichever context keeps them (none when no context answers). */
  private async externalLinks(organizationId: string, issueId: string): Promise<IssueExternalLink[]> {
    try {
      return await this.queries.execute<IssueExternalLinksQuery, IssueExternalLink[]>(new IssueExternalLinksQuery(organizationId, issueId));
    } catch (error) {
      if (error instanceof QueryHandlerNotFoundException) return [];
      throw error;
    }
  }

  @Put('organizations/:organization_id_or_slug/issues/:issue_id')
  @RequireScopes('event:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Body() body: UpdateIssueDto,
  ) {
    const issue = await this.issue(organization, issueId);
    await this.bulkUpdate(organization, principal, [issue.id], body);
    return this.detailOf(organization, await this.issue(organization, issue.id), principal);
  }

  @Delete('organizations/:organization_id_or_slug/issues/:issue_id')
  @HttpCode(202)
  @RequireScopes('event:admin')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string) {
    const issue = await this.issue(organization, issueId);
    await this.commands.execute(new DeleteIssueCommand(organization.id, [issue.id]));
  }

  // ---- comments (`notes/` is Sentry's other name for them) and the activity feed -----------

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/activities')
  @RequireScopes('event:read')
  async activities(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string) {
    const issue = await this.issue(organization, issueId);
    return { activity: serializeActivity(await this.repository.history(this.database, String(issue.id))) };
  }

  /** Sentry's similar issues as `[issue, scores]` pairs: 1 where the title or culprit is the same, else 0. */
  @Get('organizations/:organization_id_or_slug/issues/:issue_id/similar')
  @RequireScopes('event:read')
  @ApiQuery({ name: 'limit', required: false, description: 'At most this many (1–50, default 10).' })
  async similar(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string, @Query('limit') limit?: string) {
    const count = limit === undefined ? 10 : Number(limit);
    if (!Number.isInteger(count) || count < 1 || count > MAX_SIMILAR)
      throw new BadRequestException({ detail: `limit must be a whole number from 1 to ${MAX_SIMILAR}.` });
    const issue = await this.issue(organization, issueId);
    const rows = await this.readModel.similar(issue, count);
    return rows.map((row) => [
      serializeIssue(row, organization, this.config.publicUrl),
      { title: row.title === issue.title ? 1 : 0, culprit: issue.culprit && row.culprit === issue.culprit ? 1 : 0 },
    ]);
  }

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/hashes')
  @RequireScopes('event:read')
  async hashes(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string, @Paginate() page: Pagination) {
    const issue = await this.issue(organization, issueId);
    const hashes = page.respond(await this.merges.hashes(issue.id, page.offset, page.fetchLimit));
    const events = await this.readModel.eventsByIds(
      issue.id,
      hashes.flatMap((hash) => (hash.latest_event_id ? [hash.latest_event_id] : [])),
    );
    const byId = new Map(events.map((event) => [event.event_id, event]));
    return hashes.map((hash) => {
      const event = hash.latest_event_id ? byId.get(hash.latest_event_id) : undefined;
      return { id: hash.hash, latestEvent: event ? serializeEvent(event) : null, mergedBySeer: false };
    });
  }

  /**
   * Sentry's unmerge: the events of the named hashes (`?id=`, repeated) go to one new issue, which
   * the answer names (Sentry answers 202 with no body; its web app sends PUT, its API DELETE).
   */
  @Delete('organizations/:organization_id_or_slug/issues/:issue_id/hashes')
  @HttpCode(202)
  @RequireScopes('event:write')
  @ApiQuery({ name: 'id', required: true, type: [String], description: `The hashes to unmerge (repeat the parameter; at most ${MAX_UNMERGE_HASHES}).` })
  async unmerge(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Query('id') ids?: string | string[],
  ) {
    const hashes = (Array.isArray(ids) ? ids : ids === undefined ? [] : [ids]).filter((hash) => hash !== '');
    if (hashes.length === 0) throw new BadRequestException({ detail: 'Name the hashes to unmerge with ?id=.' });
    if (hashes.length > MAX_UNMERGE_HASHES) throw new BadRequestException({ detail: `At most ${MAX_UNMERGE_HASHES} hashes can be unmerged at once.` });
    const issue = await this.issue(organization, issueId);
    const actor = await this.people.actorFor(principal);
    const unmerged = await this.commands.execute<UnmergeIssueCommand, UnmergedIssue>(new UnmergeIssueCommand(organization.id, issue.id, hashes, actor));
    return { id: unmerged.issueId, shortId: unmerged.shortId };
  }

  @Put('organizations/:organization_id_or_slug/issues/:issue_id/hashes')
  @HttpCode(202)
  @RequireScopes('event:write')
  @ApiQuery({ name: 'id', required: true, type: [String], description: `The hashes to unmerge (repeat the parameter; at most ${MAX_UNMERGE_HASHES}).` })
  unmergeByPut(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Query('id') ids?: string | string[],
  ) {
    return this.unmerge(organization, principal, issueId, ids);
  }

  @Get(['organizations/:organization_id_or_slug/issues/:issue_id/comments', 'organizations/:organization_id_or_slug/issues/:issue_id/notes'])
  @RequireScopes('event:read')
  async listComments(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string, @Paginate() page: Pagination) {
    const issue = await this.issue(organization, issueId);
    const aggregate = await this.repository.load(this.database, issue.id);
    const comments = (aggregate?.comments ?? []).filter((comment) => !comment.deleted).reverse();
    return page.respond(comments.slice(page.offset, page.offset + page.fetchLimit)).map(serializeComment);
  }

  @Post(['organizations/:organization_id_or_slug/issues/:issue_id/comments', 'organizations/:organization_id_or_slug/issues/:issue_id/notes'])
  @HttpCode(201)
  @RequireScopes('event:write')
  async addComment(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Body() body: IssueCommentDto,
  ) {
    const issue = await this.issue(organization, issueId);
    const actor = await this.people.actorFor(principal);
    const comment = await this.commands.execute<AddIssueCommentCommand, IssueComment>(new AddIssueCommentCommand(organization.id, issue.id, body.text, actor));
    return serializeComment(comment);
  }

  @Put([
    'organizations/:organization_id_or_slug/issues/:issue_id/comments/:comment_id',
    'organizations/:organization_id_or_slug/issues/:issue_id/notes/:comment_id',
  ])
  @RequireScopes('event:write')
  async editComment(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Param('comment_id') commentId: string,
    @Body() body: IssueCommentDto,
  ) {
    const issue = await this.issue(organization, issueId);
    const actor = await this.people.actorFor(principal);
    const comment = await this.commands.execute<EditIssueCommentCommand, IssueComment>(
      new EditIssueCommentCommand(organization.id, issue.id, commentId, body.text, actor),
    );
    return serializeComment(comment);
  }

  @Delete([
    'organizations/:organization_id_or_slug/issues/:issue_id/comments/:comment_id',
    'organizations/:organization_id_or_slug/issues/:issue_id/notes/:comment_id',
  ])
  @HttpCode(204)
  @RequireScopes('event:admin')
  async deleteComment(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueId: string,
    @Param('comment_id') commentId: string,
  ) {
    const issue = await this.issue(organization, issueId);
    const actor = await this.people.actorFor(principal);
    await this.commands.execute(new DeleteIssueCommentCommand(organization.id, issue.id, commentId, actor));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private async list(
    organization: OrganizationAccess,
    principal: Principal,
    page: Pagination,
    params: { query?: string; sort?: string; environment?: string | string[] },
    projectIds: string[] | undefined,
    statsPeriod: IssueStatsWindow | null,
    range?: IssueTimeRange,
  ) {
    const environments = params.environment === undefined ? [] : [params.environment].flat();
    const search = parseIssueSearch(single(params.query, 'query'), { now: this.clock.now(), userId: principal.userId, environments });
    const filter = { organizationId: organization.id, projectIds, search, range };
    // Reads that do not wait on each other run at once, each on its own connection.
    const [rows, hits] = await Promise.all([
      this.readModel.list({ ...filter, sort: parseIssueSort(single(params.sort, 'sort')), offset: page.offset, limit: page.fetchLimit }),
      this.readModel.count(filter, MAX_HITS),
    ]);
    const issues = page.respond(rows);
    page.hits(hits, MAX_HITS);
    const ids = issues.map((row) => row.id);
    const [stats, bookmarked, rangeCounts] = await Promise.all([
      statsPeriod ? this.readModel.stats(ids, [statsPeriod]) : undefined,
      this.bookmarks.bookmarkedOf(principal.userId, ids),
      range ? this.readModel.rangeCounts(ids, range) : undefined,
    ]);
    return issues.map((row) =>
      serializeIssue(row, organization, this.config.publicUrl, stats?.get(row.id) ?? {}, {
        isBookmarked: bookmarked.has(row.id),
        rangeCount: rangeCounts ? (rangeCounts.get(row.id) ?? 0) : undefined,
      }),
    );
  }

  /**
   * The issues' changes, then the caller's bookmark, then (as Sentry does, only with two or more
   * issues) the merge: the update checks every id and input first, so the bookmark (refused up
   * front without a user) cannot be left half-made.
   */
  private async bulkUpdate(organization: OrganizationAccess, principal: Principal, ids: string[], body: UpdateIssueDto, projectId?: string) {
    const changes = changesOf(body);
    const bookmark = body.isBookmarked ?? undefined;
    if (bookmark !== undefined && !principal.userId) {
      throw new BadRequestException({ detail: 'isBookmarked: only a user can bookmark an issue; an organization token has no user.' });
    }
    const actor = await this.people.actorFor(principal);
    const result = await this.commands.execute<UpdateIssueCommand, IssueChangesResult>(new UpdateIssueCommand(organization.id, ids, changes, actor, projectId));
    if (bookmark !== undefined) await this.commands.execute(new BookmarkIssuesCommand(organization.id, ids, principal.userId, bookmark, projectId));
    const { assignedTo, ...rest } = result;
    const merge =
      isMergeFlag(body.merge) && new Set(ids).size > 1
        ? await this.commands.execute<MergeIssuesCommand, MergedIssues>(new MergeIssuesCommand(organization.id, ids, actor, projectId))
        : undefined;
    return {
      isPublic: false,
      ...rest,
      ...(assignedTo !== undefined ? { assignedTo: serializeAssignee(assignedTo) } : {}),
      ...(bookmark !== undefined ? { isBookmarked: bookmark } : {}),
      ...(merge ? { merge } : {}),
    };
  }

  private issue(organization: OrganizationAccess, issueId: string): Promise<IssueRow> {
    return this.readModel.require(organization.id, issueId);
  }

  private project(organization: OrganizationAccess, idOrSlug: string): Promise<ProjectSummary> {
    return requireProject(this.queries, organization.id, idOrSlug);
  }
}

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw new BadRequestException({ detail: `Give the ${name} parameter once.` });
  return value;
}

/** The graph of an issue list: 24h when not given, none when empty, as Sentry answers. */
function listStatsPeriod(value: string | undefined, name: string): IssueStatsWindow | null {
  if (value === undefined || value === '24h') return ISSUE_STATS_PERIODS['24h'];
  if (value === '14d') return ISSUE_STATS_PERIODS['14d'];
  if (value === '') return null;
  const choices = name === 'groupStatsPeriod' ? "'', '24h', '14d', and 'auto'" : "'', '24h', and '14d'";
  throw new BadRequestException({ detail: `Invalid ${name}. Valid choices are ${choices}.` });
}

const PERIOD_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MAX_AUTO_BUCKETS = 366;

/**
 * `groupStatsPeriod=auto`: Sentry's graph over the query's range (`statsPeriod`, 14 days by
 * default), named `auto`; hourly up to two days (hourly counts are kept that long), daily beyond.
 */
function autoStatsWindow(statsPeriod = '14d'): IssueStatsWindow {
  const match = /^(\d{1,6})([smhdw])$/.exec(statsPeriod);
  const range = match ? Number(match[1]) * PERIOD_UNITS_MS[match[2]] : 0;
  if (range <= 0) throw new BadRequestException({ detail: 'Invalid statsPeriod: a number and s, m, h, d or w, such as 24h or 14d.' });
  const resolution = range <= 2 * PERIOD_UNITS_MS.d ? '1h' : '1d';
  const buckets = Math.min(MAX_AUTO_BUCKETS, Math.ceil(range / PERIOD_UNITS_MS[resolution === '1h' ? 'h' : 'd']));
  return { name: 'auto', resolution, buckets };
}

/** Sentry's repeated `project` parameter: numeric ids; -1 (or none) means every project. */
function projectIdsParam(value: string | string[] | undefined): string[] | undefined {
  const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((entry) => entry !== '');
  if (values.length === 0 || values.includes('-1')) return undefined;
  if (values.some((entry) => !isNumericId(entry))) throw new BadRequestException({ detail: 'Invalid project parameter: use numeric project ids.' });
  return values;
}

function isMergeFlag(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

/** The repeated `id` parameter of bulk changes: required, numeric. */
function idsParam(value: string | string[] | undefined): string[] {
  const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((entry) => entry !== '');
  if (values.length === 0) throw new BadRequestException({ detail: 'Give the issues to change with one or more id parameters.' });
  if (values.some((entry) => !isNumericId(entry))) throw new BadRequestException({ detail: 'Invalid id parameter: issue ids are numbers.' });
  if (values.length > MAX_BULK_IDS) throw new BadRequestException({ detail: `At most ${MAX_BULK_IDS} issues can be changed at once.` });
  return values;
}

function changesOf(body: UpdateIssueDto): IssueChanges {
  for (const field of ['isPublic', 'discard'] as const) {
    if (body[field] === true) throw new BadRequestException({ detail: `${field} is not supported.` });
  }
  return {
    ...(body.status !== undefined && body.status !== null ? { status: body.status } : {}),
    ...(body.statusDetails !== undefined && body.statusDetails !== null ? { statusDetails: { ...body.statusDetails } } : {}),
    ...(body.assignedTo !== undefined ? { assignedTo: body.assignedTo } : {}),
  };
}
