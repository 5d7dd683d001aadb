import { BadRequestException, Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, eventTimeRange, list, one, type OrganizationAccess, RequireScopes } from '@faultline/platform';
import { FindOrganizationProjectsQuery, type ProjectSummary } from '@faultline/projects';
import { answerSessionQuery, parseSessionQuery, type SessionQuery, SessionQueryError } from '../domain/session-query';
import { type SessionFilter, type SessionGroupColumn, SessionHealthRepository } from '../infrastructure/session-health.repository';

const STORED_GROUPS: Record<string, SessionGroupColumn> = { project: 'project_id', release: 'release', environment: 'environment' };

/** Sentry's sessions API (release health): `GET /organizations/{org}/sessions/`. */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class SessionsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly sessions: SessionHealthRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/sessions')
  @RequireScopes('org:read', 'project:read')
  @ApiQuery({
    name: 'field',
    required: true,
    type: [String],
    description: 'sum(session), count_unique(user), crash_free_rate(session), crash_free_rate(user); repeat.',
  })
  @ApiQuery({ name: 'groupBy', required: false, type: [String], description: 'project, release, environment, session.status; repeat.' })
  @ApiQuery({ name: 'query', required: false, description: 'release:… and environment:… terms.' })
  @ApiQuery({ name: 'interval', required: false, description: 'A multiple of 1h dividing a day (default 1h).' })
  @ApiQuery({ name: 'statsPeriod', required: false })
  @ApiQuery({ name: 'project', required: false, type: [String] })
  @ApiQuery({ name: 'environment', required: false, type: [String] })
  async sessionsOf(
    @CurrentOrganization() organization: OrganizationAccess,
    @Query('field') field?: string | string[],
    @Query('groupBy') groupBy?: string | string[],
    @Query('query') query?: string | string[],
    @Query('interval') interval?: string | string[],
    @Query('statsPeriod') statsPeriod?: string | string[],
    @Query('start') start?: string | string[],
    @Query('end') end?: string | string[],
    @Query('project') project?: string | string[],
    @Query('environment') environment?: string | string[],
  ) {
    const now = this.clock.now();
    // Sentry's default range of the sessions API is a day.
    const range = eventTimeRange(now, {
      statsPeriod: one(statsPeriod, 'statsPeriod') ?? (start || end ? undefined : '24h'),
      start: one(start, 'start'),
      end: one(end, 'end'),
    });
    const search = one(query, 'query') ?? '';
    let parsed: SessionQuery;
    try {
      parsed = parseSessionQuery({
        fields: list(field),
        groupBy: list(groupBy),
        query: search,
        interval: one(interval, 'interval'),
        start: new Date(range.start),
        end: new Date(Math.min(Date.parse(range.end), now.getTime())),
        now,
      });
    } catch (error) {
      if (error instanceof SessionQueryError) throw new BadRequestException({ detail: error.message });
      throw error;
    }
    const projects = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const filter: SessionFilter = {
      projectIds: chosenProjects(projects, list(project)),
      start: parsed.start.toISOString(),
      end: parsed.end.toISOString(),
      intervalSeconds: parsed.intervalMs / 1000,
      environments: [...list(environment).filter((entry) => entry !== ''), ...parsed.environments],
      releases: parsed.releases,
      groupBy: parsed.groupBy.filter((group) => group in STORED_GROUPS).map((group) => STORED_GROUPS[group]),
    };
    const wantsUsers = parsed.fields.some((entry) => entry.endsWith('(user)'));
    const [counts, users] = await Promise.all([this.sessions.counts(filter), wantsUsers ? this.sessions.users(filter) : Promise.resolve([])]);
    return answerSessionQuery(parsed, counts, users, search);
  }
}

/** Sentry's repeated `project` parameter: ids of the organization's projects; none or -1: all of them. */
function chosenProjects(projects: readonly ProjectSummary[], requested: string[]): string[] {
  const ids = requested.filter((entry) => entry !== '');
  if (ids.length === 0 || ids.includes('-1')) return projects.map((entry) => entry.id);
  const known = new Set(projects.map((entry) => entry.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw new BadRequestException({ detail: `Invalid project ids: ${unknown.slice(0, 10).join(', ')}.` });
  return ids;
}
