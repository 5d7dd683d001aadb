import { BadRequestException, Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { GlobSet, isNumericId } from '@faultline/kernel';
import { CurrentOrganization, Database, list, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { FindOrganizationProjectsQuery, type ProjectSummary } from '@faultline/projects';
import { IssueRulesRepository } from '../infrastructure/issue-rules.repository';
import { serializeWorkflow } from './alert-rules.serializers';

/** Budgets of one workflow search: its name patterns are globs matched without backtracking. */
const MAX_QUERY_CHARS = 200;
const MAX_IDS = 100;
const SORTS: Record<string, (a: { id: string; name: string }, b: { id: string; name: string }) => number> = {
  id: (a, b) => Number(a.id) - Number(b.id),
  '-id': (a, b) => Number(b.id) - Number(a.id),
  name: (a, b) => a.name.localeCompare(b.name) || Number(a.id) - Number(b.id),
  '-name': (a, b) => b.name.localeCompare(a.name) || Number(b.id) - Number(a.id),
};

/**
 * Sentry's workflow engine API (`GET /organizations/{org}/workflows/`), which newer Sentry clients
 * (its MCP server among them) read issue alert rules from: each issue alert rule as a workflow
 * attached to its project's issue stream detector, whose id is the project's.
 */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class WorkflowsController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly rules: IssueRulesRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/workflows')
  @RequireScopes('alerts:read', 'org:read')
  @ApiQuery({ name: 'projectSlug', required: false, type: [String] })
  @ApiQuery({ name: 'project', required: false, type: [String], description: 'Project ids.' })
  @ApiQuery({ name: 'id', required: false, type: [String] })
  @ApiQuery({ name: 'query', required: false, description: 'name:"*text*" (globs) or words of the name.' })
  @ApiQuery({ name: 'sortBy', required: false, enum: Object.keys(SORTS) })
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Paginate() page: Pagination,
    @Query('projectSlug') projectSlug?: string | string[],
    @Query('project') project?: string | string[],
    @Query('id') id?: string | string[],
    @Query('query') query?: string | string[],
    @Query('sortBy') sortBy?: string | string[],
  ) {
    const sort = SORTS[[sortBy ?? 'id'].flat()[0]];
    if (!sort) throw new BadRequestException({ detail: `Invalid sortBy; use one of ${Object.keys(SORTS).join(', ')}.` });
    const ids = list(id);
    if (ids.length > MAX_IDS || ids.some((entry) => !isNumericId(entry))) throw new BadRequestException({ detail: `id must be up to ${MAX_IDS} numeric ids.` });
    const matchesName = nameMatcher(list(query).join(' '));
    const projects = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const chosen = chosenProjects(projects, list(projectSlug), list(project));
    const rows = (await this.rules.forProjects(this.database, chosen))
      .filter((row) => ids.length === 0 || ids.includes(String(row.id)))
      .filter((row) => matchesName(row.name))
      .sort((a, b) => sort({ id: String(a.id), name: a.name }, { id: String(b.id), name: b.name }));
    return page.respond(rows.slice(page.offset, page.offset + page.fetchLimit)).map((row) => serializeWorkflow(row, organization.id));
  }
}

/** The projects named by slug or id, all of the organization's when none; an unknown one is a 400 as in Sentry. */
function chosenProjects(projects: readonly ProjectSummary[], slugs: string[], ids: string[]): string[] {
  if (slugs.length === 0 && (ids.length === 0 || ids.includes('-1'))) return projects.map((entry) => entry.id);
  const chosen = projects.filter((entry) => slugs.includes(entry.slug) || ids.includes(entry.id));
  const unknown = [...slugs.filter((slug) => !projects.some((entry) => entry.slug === slug)), ...ids.filter((entry) => !projects.some((p) => p.id === entry))];
  if (unknown.length > 0) throw new BadRequestException({ detail: `Unknown projects: ${unknown.slice(0, 10).join(', ')}.` });
  return chosen.map((entry) => entry.id);
}

/** Sentry's workflow search: `name:` terms are globs over the whole name, other words must appear in it. */
function nameMatcher(query: string): (name: string) => boolean {
  if (query.length > MAX_QUERY_CHARS) throw new BadRequestException({ detail: `query is longer than ${MAX_QUERY_CHARS} characters.` });
  const globs: string[] = [];
  const words: string[] = [];
  for (const [, quoted, bare] of query.matchAll(/name:(?:"((?:[^"\\]|\\.)*)"|(\S+))|\S+/g)) {
    if (quoted !== undefined || bare !== undefined) globs.push((quoted ?? bare).replace(/\\(.)/g, '$1'));
  }
  for (const word of query.replace(/name:(?:"(?:[^"\\]|\\.)*"|\S+)/g, ' ').split(/\s+/)) if (word) words.push(word.toLowerCase());
  const set = globs.length > 0 ? new GlobSet(globs) : undefined;
  return (name) => (!set || set.matches(name)) && words.every((word) => name.toLowerCase().includes(word));
}
