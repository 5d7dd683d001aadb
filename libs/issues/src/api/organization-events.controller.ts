import { BadRequestException, Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, eventTimeRange, list, one, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { FindOrganizationProjectsQuery, type ProjectSummary } from '@faultline/projects';
import { type EventColumn, type EventFieldType, parseEventSearch, validateEventSearch } from '../application/queries/event-search';
import { EventSearchReader } from '../infrastructure/event-search.repository';

const DATASETS = new Set(['errors', 'discover']);

/** Sentry's event times: ISO 8601 to the second, with an explicit UTC offset. */
const sentryTime = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/**
 * Sentry's events API over the errors dataset (`GET /organizations/{org}/events/`): the `field`s
 * asked for (aggregates group by the plain fields), `query` in Sentry's search syntax, `sort`,
 * the time range, projects and environments, answered as `{data, meta}`.
 */
@ApiTags('Events')
@ApiBearerAuth()
@Controller('api/0')
export class OrganizationEventsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly reader: EventSearchReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/events')
  @RequireScopes('event:read')
  @ApiQuery({
    name: 'field',
    required: true,
    type: [String],
    description: 'Fields and aggregates (count(), count_unique(field), last_seen(), first_seen()); repeat the parameter.',
  })
  @ApiQuery({
    name: 'query',
    required: false,
    description: "Sentry's event search: key:value, !key:value, has:, quoted values, * wildcards, comparisons, free text.",
  })
  @ApiQuery({ name: 'sort', required: false, type: [String], description: 'A selected field or aggregate alias (count, count_unique_user), - for descending.' })
  @ApiQuery({ name: 'project', required: false, type: [String] })
  @ApiQuery({ name: 'environment', required: false, type: [String] })
  @ApiQuery({ name: 'statsPeriod', required: false })
  @ApiQuery({ name: 'dataset', required: false, enum: ['errors', 'discover'] })
  async search(
    @CurrentOrganization() organization: OrganizationAccess,
    @Paginate() page: Pagination,
    @Query('field') field?: string | string[],
    @Query('query') query?: string | string[],
    @Query('sort') sort?: string | string[],
    @Query('project') project?: string | string[],
    @Query('environment') environment?: string | string[],
    @Query('statsPeriod') statsPeriod?: string | string[],
    @Query('start') start?: string | string[],
    @Query('end') end?: string | string[],
    @Query('dataset') dataset?: string | string[],
  ) {
    const datasetName = one(dataset, 'dataset') ?? 'errors';
    if (!DATASETS.has(datasetName)) throw new BadRequestException({ detail: `Unsupported dataset: ${datasetName}. Only errors are kept; use dataset=errors.` });
    const now = this.clock.now();
    const search = parseEventSearch({ fields: list(field), query: one(query, 'query'), sort: list(sort), now });
    const range = eventTimeRange(now, { statsPeriod: one(statsPeriod, 'statsPeriod'), start: one(start, 'start'), end: one(end, 'end') });
    const projects = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const chosen = this.chosenProjects(projects, list(project));
    const slugs = new Map(projects.map((entry) => [entry.id, entry.slug]));
    const rows = await this.reader.search(search, {
      projectIds: chosen,
      ...range,
      environments: list(environment).filter((entry) => entry !== ''),
      projectSlugs: slugs,
      offset: page.offset,
      limit: page.fetchLimit,
    });
    const data = page
      .respond(rows)
      .map((row) => Object.fromEntries(search.columns.map((column, index) => [column.name, value(column, row[`c${index}`], slugs)])));
    return {
      data,
      meta: {
        fields: Object.fromEntries(search.columns.map((column): [string, EventFieldType] => [column.name, column.type])),
        units: Object.fromEntries(search.columns.map((column) => [column.name, null])),
        isMetricsData: false,
        dataset: 'errors',
      },
    };
  }

  /**
   * Sentry's check of an events search before it runs (`GET /organizations/{org}/events/validate/`,
   * which its MCP server calls): each field, the query, each sort, the dataset, projects and
   * environments judged apart; 400 with the same body when anything is invalid.
   */
  @Get('organizations/:organization_id_or_slug/events/validate')
  @RequireScopes('event:read')
  async validate(
    @CurrentOrganization() organization: OrganizationAccess,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('field') field?: string | string[],
    @Query('query') query?: string | string[],
    @Query('orderby') orderby?: string | string[],
    @Query('sort') sort?: string | string[],
    @Query('project') project?: string | string[],
    @Query('environment') environment?: string | string[],
    @Query('dataset') dataset?: string | string[],
  ) {
    const datasetName = one(dataset, 'dataset') ?? 'errors';
    const projects = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const known = new Set(projects.map((entry) => entry.id));
    const search = validateEventSearch({ fields: list(field), query: one(query, 'query'), sort: [...list(orderby), ...list(sort)], now: this.clock.now() });
    const answer = {
      projects: list(project)
        .filter((id) => id !== '' && id !== '-1')
        .slice(0, 100)
        .map((id) => (known.has(id) ? { valid: true, error: null } : { valid: false, error: `Invalid project id: ${id.slice(0, 40)}` })),
      dataset: [
        DATASETS.has(datasetName)
          ? { name: datasetName, valid: true, error: null }
          : {
              name: datasetName.slice(0, 40),
              valid: false,
              error: `Unsupported dataset: ${datasetName.slice(0, 40)}. Only errors are kept; use dataset=errors.`,
            },
      ],
      environment: list(environment)
        .slice(0, 100)
        .map(() => ({ valid: true, error: null })),
      field: search.field,
      query: search.query,
      orderby: search.orderby,
    };
    const valid = [...answer.projects, ...answer.dataset, ...answer.field, answer.query, ...answer.orderby].every((entry) => entry.valid);
    if (!valid) reply.status(400);
    return { valid, ...answer };
  }

  /** Sentry's repeated `project` parameter: numeric ids of the organization's projects; none or -1: all of them. */
  private chosenProjects(projects: readonly ProjectSummary[], requested: string[]): string[] {
    const ids = requested.filter((entry) => entry !== '');
    if (ids.length === 0 || ids.includes('-1')) return projects.map((entry) => entry.id);
    const known = new Set(projects.map((entry) => entry.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw new BadRequestException({ detail: `Invalid project ids: ${unknown.join(', ')}.` });
    return ids;
  }
}

function value(column: EventColumn, raw: unknown, slugs: ReadonlyMap<string, string>): unknown {
  if (raw === null || raw === undefined) return null;
  if (column.kind === 'field' && column.field.kind === 'field' && (column.field.name === 'project' || column.field.name === 'project.name'))
    return slugs.get(String(raw)) ?? null;
  if (column.type === 'integer') return Number(raw);
  if (column.type === 'date') return sentryTime(raw);
  return raw;
}
