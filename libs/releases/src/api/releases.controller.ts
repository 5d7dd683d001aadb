import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { FindProjectQuery, type ProjectSummary, requireProject } from '@faultline/projects';
import { CLOCK, type Clock, isNumericId } from '@faultline/kernel';
import { CreateDeployCommand } from '../application/commands/create-deploy/create-deploy.command';
import { CreateReleaseCommand } from '../application/commands/create-release/create-release.command';
import { DeleteReleaseCommand } from '../application/commands/delete-release/delete-release.command';
import { UpdateReleaseCommand } from '../application/commands/update-release/update-release.command';
import { type CommitInput, type DeployJson, type ReleaseChanges, type ReleaseRow, ReleasesRepository } from '../infrastructure/releases.repository';
import { CreateDeployDto, CreateReleaseDto, UpdateReleaseDto } from './releases.dto';
import { serializeCommit, serializeDeploy, serializeRelease } from './releases.serializers';
import { releaseHealthData } from '../domain/release-health';
import { readReleaseHealth } from '../infrastructure/session-health.repository';

/** The range of a release's health totals (Sentry's default `summaryStatsPeriod`). */
const HEALTH_PERIOD_MS = 14 * 24 * 3_600_000;
/** Sentry's `health=1`. */
const wantsHealth = (value: unknown): boolean => value === '1' || value === 'true';

const date = (value: string | null | undefined): Date | null | undefined => (value === undefined ? undefined : value === null ? null : new Date(value));
const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value !== '' ? value.slice(0, max) : null);

/** A release's commits from Sentry's `commits` (newest first) or `refs` (a head commit per repository). */
function commitsOf(body: CreateReleaseDto | UpdateReleaseDto): CommitInput[] | undefined {
  if (body.commits) {
    return body.commits.map((commit) => {
      const id = text(commit.id, 64);
      if (!id) throw new BadRequestException({ detail: 'Each commit needs an id.', commits: ['Each commit needs an id.'] });
      const timestamp = typeof commit.timestamp === 'string' && !Number.isNaN(Date.parse(commit.timestamp)) ? new Date(commit.timestamp) : null;
      return {
        id,
        repository: text(commit.repository, 200),
        message: text(commit.message, 4096),
        authorName: text(commit.author_name, 128),
        authorEmail: text(commit.author_email, 75),
        timestamp,
      };
    });
  }
  if (body.refs) {
    return body.refs.map((ref) => {
      const id = text(ref.commit, 200)?.split('..').at(-1);
      if (!id || !text(ref.repository, 200))
        throw new BadRequestException({ detail: 'Each ref needs a repository and a commit.', refs: ['Each ref needs a repository and a commit.'] });
      return { id: id.slice(0, 64), repository: text(ref.repository, 200), message: null, authorName: null, authorEmail: null, timestamp: null };
    });
  }
  return undefined;
}

function changesOf(body: CreateReleaseDto | UpdateReleaseDto): ReleaseChanges {
  return {
    ref: body.ref,
    url: body.url,
    dateStarted: date(body.dateStarted),
    dateReleased: date(body.dateReleased),
    status: 'status' in body ? body.status : undefined,
  };
}

/** Releases of an organization, and of one project, on Sentry's paths and in its shapes. */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class ReleasesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly releases: ReleasesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/releases')
  @RequireScopes('project:read', 'project:releases')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Query('query') query: string | undefined,
    @Query('project') project: string | string[] | undefined,
    @Paginate() page: Pagination,
    @Query('health') health?: string,
  ) {
    const projectIds = project === undefined ? undefined : Array.isArray(project) ? project : [project];
    if (projectIds?.some((id) => !isNumericId(id))) throw new BadRequestException({ detail: 'Invalid project parameter.' });
    const rows = page.respond(
      await this.releases.list(
        this.database,
        organization.id,
        { query: typeof query === 'string' ? query : undefined, projectIds },
        page.offset,
        page.fetchLimit,
      ),
    );
    return this.serializeAll(organization.id, rows, wantsHealth(health));
  }

  @Post('organizations/:organization_id_or_slug/releases')
  @RequireScopes('project:write', 'project:releases')
  async create(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateReleaseDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!body.projects || body.projects.length === 0)
      throw new BadRequestException({ detail: 'projects: This field is required.', projects: ['This field is required.'] });
    const projects = await this.projectsNamed(organization.id, body.projects);
    return this.createFor(
      organization,
      principal,
      body,
      projects.map((p) => p.id),
      reply,
    );
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/releases')
  @RequireScopes('project:read', 'project:releases')
  async listForProject(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Query('query') query: string | undefined,
    @Paginate() page: Pagination,
    @Query('health') health?: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rows = page.respond(
      await this.releases.list(
        this.database,
        organization.id,
        { query: typeof query === 'string' ? query : undefined, projectIds: [project.id] },
        page.offset,
        page.fetchLimit,
      ),
    );
    return this.serializeAll(organization.id, rows, wantsHealth(health));
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/releases')
  @RequireScopes('project:write', 'project:releases')
  async createForProject(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Body() body: CreateReleaseDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    return this.createFor(organization, principal, body, [project.id], reply);
  }

  @Get('organizations/:organization_id_or_slug/releases/:version')
  @RequireScopes('project:read', 'project:releases')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Query('health') health?: string) {
    return (await this.serializeAll(organization.id, [await this.release(organization.id, version)], wantsHealth(health)))[0];
  }

  @Put('organizations/:organization_id_or_slug/releases/:version')
  @RequireScopes('project:write', 'project:releases')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('version') version: string,
    @Body() body: UpdateReleaseDto,
  ) {
    await this.release(organization.id, version);
    if (body.projects?.length) {
      const projects = await this.projectsNamed(organization.id, body.projects);
      await this.commands.execute(
        new CreateReleaseCommand(
          organization.id,
          version,
          projects.map((p) => p.id),
          {},
          undefined,
          false,
          principal.userId ?? null,
        ),
      );
    }
    await this.commands.execute(
      new UpdateReleaseCommand(organization.id, version, changesOf(body), commitsOf(body), !body.commits && !!body.refs, principal.userId ?? null),
    );
    return this.serialize(organization.id, await this.release(organization.id, version));
  }

  @Delete('organizations/:organization_id_or_slug/releases/:version')
  @HttpCode(204)
  @RequireScopes('project:admin', 'project:releases')
  async delete(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Param('version') version: string) {
    await this.release(organization.id, version);
    await this.commands.execute(new DeleteReleaseCommand(organization.id, version, principal.userId ?? null));
  }

  @Get('organizations/:organization_id_or_slug/releases/:version/commits')
  @RequireScopes('project:read', 'project:releases')
  async commits(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Paginate() page: Pagination) {
    const release = await this.release(organization.id, version);
    return page.respond(await this.releases.listCommits(this.database, release.id, page.offset, page.fetchLimit)).map(serializeCommit);
  }

  /** What `sentry-cli releases set-commits --local` starts from: the newest earlier release with commits, or `{}`. */
  @Get('organizations/:organization_id_or_slug/releases/:version/previous-with-commits')
  @RequireScopes('project:read', 'project:releases')
  async previousWithCommits(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string) {
    const release = await this.release(organization.id, version);
    const previous = await this.releases.previousWithCommits(this.database, organization.id, release);
    return previous ? this.serialize(organization.id, previous) : {};
  }

  @Get('organizations/:organization_id_or_slug/releases/:version/deploys')
  @RequireScopes('project:read', 'project:releases')
  async deploys(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Paginate() page: Pagination) {
    const release = await this.release(organization.id, version);
    return page.respond(await this.releases.listDeploys(this.database, release.id, page.offset, page.fetchLimit)).map(serializeDeploy);
  }

  @Post('organizations/:organization_id_or_slug/releases/:version/deploys')
  @HttpCode(201)
  @RequireScopes('project:write', 'project:releases')
  async createDeploy(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('version') version: string,
    @Body() body: CreateDeployDto,
  ) {
    await this.release(organization.id, version);
    if (body.projects?.length) await this.projectsNamed(organization.id, body.projects);
    const deploy = await this.commands.execute<CreateDeployCommand, DeployJson>(
      new CreateDeployCommand(
        organization.id,
        version,
        {
          environment: body.environment,
          name: body.name ?? null,
          url: body.url ?? null,
          dateStarted: date(body.dateStarted) ?? null,
          dateFinished: date(body.dateFinished) ?? null,
        },
        principal.userId ?? null,
      ),
    );
    return serializeDeploy(deploy);
  }

  private async createFor(organization: OrganizationAccess, principal: Principal, body: CreateReleaseDto, projectIds: string[], reply: FastifyReply) {
    const result = await this.commands.execute<CreateReleaseCommand, { created: boolean }>(
      new CreateReleaseCommand(
        organization.id,
        body.version,
        projectIds,
        changesOf(body),
        commitsOf(body),
        !body.commits && !!body.refs,
        principal.userId ?? null,
      ),
    );
    // Sentry answers an existing release with 208 Already Reported.
    void reply.status(result.created ? 201 : 208);
    return this.serialize(organization.id, await this.release(organization.id, body.version));
  }

  private async release(organizationId: string, version: string): Promise<ReleaseRow> {
    const release = await this.releases.find(this.database, organizationId, version);
    if (!release) throw new NotFoundException();
    return release;
  }

  /** Projects named by slug or id; any unknown one is a 400, as in Sentry. */
  private async projectsNamed(organizationId: string, names: ReadonlyArray<string | number>): Promise<ProjectSummary[]> {
    const found: ProjectSummary[] = [];
    for (const name of new Set(names.map(String))) {
      const project = await this.queries.execute<FindProjectQuery, ProjectSummary | null>(new FindProjectQuery(organizationId, name));
      if (!project) throw new BadRequestException({ detail: 'Invalid project ids or slugs', projects: [`Invalid project: ${name}`] });
      found.push(project);
    }
    return found;
  }

  private async serialize(organizationId: string, row: ReleaseRow) {
    return (await this.serializeAll(organizationId, [row]))[0];
  }

  private async serializeAll(organizationId: string, rows: ReleaseRow[], withHealth = false) {
    const projects = new Map<string, ProjectSummary>();
    for (const id of new Set(rows.flatMap((row) => row.projects.map((p) => p.project_id)))) {
      const project = await this.queries.execute<FindProjectQuery, ProjectSummary | null>(new FindProjectQuery(organizationId, id));
      if (project) projects.set(id, project);
    }
    const now = this.clock.now();
    const pairs = rows.flatMap((row) => row.projects.filter((p) => projects.has(p.project_id)).map((p) => ({ projectId: p.project_id, release: row.version })));
    const health = await readReleaseHealth(this.database, pairs, new Date(now.getTime() - HEALTH_PERIOD_MS), now);
    const releaseHealth = new Map(health.releases.map((entry) => [JSON.stringify([entry.projectId, entry.release]), entry]));
    const projectHealth = new Map(health.projects.map((entry) => [entry.projectId, entry]));
    return rows.map((row) =>
      serializeRelease(row, projects, (projectId) => ({
        data: releaseHealthData(releaseHealth.get(JSON.stringify([projectId, row.version])), projectHealth.get(projectId), now),
        included: withHealth,
      })),
    );
  }
}
