import { BadRequestException, Controller, Get, Inject, NotFoundException, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, Database, type OrganizationAccess, RequireScopes } from '@faultline/platform';
import { FindOrganizationProjectsQuery, type ProjectSummary } from '@faultline/projects';
import { type OutcomesAnswer, outcomesAnswer, OutcomesQueryError, parseOutcomesQuery } from '../domain';
import { OutcomeStatsRepository } from '../infrastructure/outcome-stats.repository';

type QueryValue = string | string[] | undefined;
const list = (value: QueryValue): string[] => (value === undefined ? [] : [value].flat());
const single = (value: QueryValue, name: string): string | undefined => {
  if (Array.isArray(value)) throw new BadRequestException({ detail: `Give the ${name} parameter once.` });
  return value;
};

/**
 * Sentry's usage stats (`GET /organizations/{org}/stats_v2/`): what became of the items the
 * organization's SDKs sent, by outcome, category, project and reason, from the outcome rollup.
 */
@ApiTags('Organizations')
@ApiBearerAuth()
@Controller('api/0')
export class OrganizationStatsController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly outcomes: OutcomeStatsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/stats_v2')
  @RequireScopes('org:read')
  @ApiQuery({ name: 'field', required: true, type: [String], description: '`sum(quantity)` (bytes for attachments) or `sum(times_seen)`; repeatable.' })
  @ApiQuery({ name: 'groupBy', required: false, type: [String], description: 'outcome, category, project or reason; repeatable.' })
  @ApiQuery({ name: 'category', required: false, type: [String], description: 'A data category (error also counts default and security).' })
  @ApiQuery({
    name: 'outcome',
    required: false,
    type: [String],
    description: 'accepted, filtered, rate_limited, invalid, abuse, client_discard, cardinality_limited.',
  })
  @ApiQuery({ name: 'reason', required: false, type: [String] })
  @ApiQuery({ name: 'project', required: false, type: [String], description: 'Project ids; -1 or none for every project.' })
  @ApiQuery({ name: 'statsPeriod', required: false, description: 'A number and s, m, h, d or w back from now (default 90d).' })
  @ApiQuery({ name: 'start', required: false })
  @ApiQuery({ name: 'end', required: false })
  @ApiQuery({ name: 'interval', required: false, description: 'A multiple of one hour that divides a day (default 1h).' })
  async stats(@CurrentOrganization() organization: OrganizationAccess, @Query() params: Record<string, QueryValue>): Promise<OutcomesAnswer> {
    let query;
    try {
      query = parseOutcomesQuery(
        {
          field: list(params.field),
          groupBy: list(params.groupBy),
          category: list(params.category),
          outcome: list(params.outcome),
          reason: list(params.reason),
          project: list(params.project),
          statsPeriod: single(params.statsPeriod, 'statsPeriod'),
          start: single(params.start, 'start'),
          end: single(params.end, 'end'),
          interval: single(params.interval, 'interval'),
        },
        Math.floor(this.clock.now().getTime() / 1000),
      );
    } catch (error) {
      if (error instanceof OutcomesQueryError) throw new BadRequestException({ detail: error.message });
      throw error;
    }
    // Every member sees every project of the organization (open membership), as Sentry's members do.
    const visible = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const visibleIds = new Set(visible.map((project) => project.id));
    // A project of another organization is as unknown as one that does not exist.
    if (query.projectIds.some((id) => !visibleIds.has(id))) throw new NotFoundException();
    const projectIds = query.projectIds.length > 0 ? query.projectIds : [...visibleIds];
    return outcomesAnswer(query, await this.outcomes.totals(this.database, organization.id, projectIds, query));
  }
}
