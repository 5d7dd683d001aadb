import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, isNumericId } from '@faultline/kernel';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { CreateMonitorCommand } from '../application/commands/create-monitor/create-monitor.command';
import { DeleteMonitorCommand } from '../application/commands/delete-monitor/delete-monitor.command';
import { UpdateMonitorCommand } from '../application/commands/update-monitor/update-monitor.command';
import type { MonitorInput } from '../domain';
import { type MonitorRow, MonitorsRepository } from '../infrastructure/monitors.repository';
import { serializeCheckIn, serializeMonitor } from './monitors.serializers';

/** Sentry's stats resolutions, and the most buckets one answer holds. */
const RESOLUTIONS: Readonly<Record<string, number>> = { '1m': 60, '5m': 300, '10m': 600, '1h': 3600, '1d': 86_400 };
const MAX_STATS_BUCKETS = 1_500;
const TRACKED_STATUSES = ['ok', 'error', 'missed', 'timeout'] as const;

type MonitorBody = MonitorInput & { readonly project?: unknown };

const list = (value: unknown): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');

/** Sentry's organization monitor endpoints (Crons). */
@ApiTags('Crons')
@ApiBearerAuth()
@Controller('api/0/organizations/:organization_id_or_slug/monitors')
export class MonitorsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @RequireScopes('project:read')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Paginate() page: Pagination,
    @Query('project') project: unknown,
    @Query('environment') environment: unknown,
    @Query('query') query: unknown,
  ) {
    const projectIds = list(project).filter((id) => id !== '-1');
    if (projectIds.some((id) => !isNumericId(id))) throw new BadRequestException({ detail: 'project must be project ids' });
    const rows = page.respond(
      await this.monitors.list(this.database, {
        organizationId: organization.id,
        projectIds,
        query: typeof query === 'string' && query.trim() !== '' ? query.trim().slice(0, 200) : undefined,
        offset: page.offset,
        limit: page.fetchLimit,
      }),
    );
    return this.serialize(rows, list(environment));
  }

  @Post()
  @HttpCode(201)
  @RequireScopes('project:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @Body() body: MonitorBody) {
    const row = await this.commands.execute<CreateMonitorCommand, MonitorRow>(new CreateMonitorCommand(organization.id, body?.project, inputOf(body)));
    return (await this.serialize([row], []))[0];
  }

  @Get(':monitor_id_or_slug')
  @RequireScopes('project:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('monitor_id_or_slug') slug: string, @Query('environment') environment: unknown) {
    return (await this.serialize([await this.monitor(organization, slug)], list(environment)))[0];
  }

  @Put(':monitor_id_or_slug')
  @RequireScopes('project:write')
  async update(@CurrentOrganization() organization: OrganizationAccess, @Param('monitor_id_or_slug') slug: string, @Body() body: MonitorBody) {
    const row = await this.commands.execute<UpdateMonitorCommand, MonitorRow>(new UpdateMonitorCommand(organization.id, slug, body?.project, inputOf(body)));
    return (await this.serialize([row], []))[0];
  }

  @Delete(':monitor_id_or_slug')
  @HttpCode(202)
  @RequireScopes('project:write')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('monitor_id_or_slug') slug: string) {
    await this.commands.execute(new DeleteMonitorCommand(organization.id, slug));
  }

  @Get(':monitor_id_or_slug/checkins')
  @RequireScopes('project:read')
  async checkIns(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('monitor_id_or_slug') slug: string,
    @Paginate() page: Pagination,
    @Query('environment') environment: unknown,
  ) {
    const monitor = await this.monitor(organization, slug);
    const rows = page.respond(await this.monitors.listCheckIns(this.database, monitor.id, list(environment), page.offset, page.fetchLimit));
    return rows.map(serializeCheckIn);
  }

  /** Check-ins per status and the average duration, per bucket (`since`/`until` in epoch seconds, `resolution` such as 1h). */
  @Get(':monitor_id_or_slug/stats')
  @RequireScopes('project:read')
  async stats(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('monitor_id_or_slug') slug: string,
    @Query('since') since: unknown,
    @Query('until') until: unknown,
    @Query('resolution') resolution: unknown,
    @Query('environment') environment: unknown,
  ) {
    const monitor = await this.monitor(organization, slug);
    const rollup = RESOLUTIONS[typeof resolution === 'string' ? resolution : '1h'];
    if (!rollup) throw new BadRequestException({ detail: `resolution must be one of ${Object.keys(RESOLUTIONS).join(', ')}` });
    const end = epochOf(until, this.clock.now().getTime() / 1000);
    const start = epochOf(since, end - 86_400);
    const first = start - (start % rollup);
    const last = end - (end % rollup);
    if (last < first || (last - first) / rollup + 1 > MAX_STATS_BUCKETS)
      throw new BadRequestException({ detail: `since must not be after until, and the range at most ${MAX_STATS_BUCKETS} buckets` });
    const rows = await this.monitors.stats(this.database, monitor.id, list(environment), new Date(first * 1000), new Date((last + rollup) * 1000), rollup);
    const buckets = new Map<number, Record<string, number>>();
    for (let ts = first; ts <= last; ts += rollup) buckets.set(ts, { ...Object.fromEntries(TRACKED_STATUSES.map((status) => [status, 0])), duration: 0 });
    const durations = new Map<number, { total: number; count: number }>();
    for (const row of rows) {
      const bucket = buckets.get(Number(row.bucket));
      if (!bucket || !(TRACKED_STATUSES as readonly string[]).includes(row.status)) continue;
      bucket[row.status] = row.count;
      if (row.duration !== null) {
        const sum = durations.get(Number(row.bucket)) ?? { total: 0, count: 0 };
        durations.set(Number(row.bucket), { total: sum.total + row.duration * row.count, count: sum.count + row.count });
      }
    }
    for (const [ts, { total, count }] of durations) (buckets.get(ts) as Record<string, number>).duration = total / count;
    return [...buckets].map(([ts, counts]) => ({ ts, ...counts }));
  }

  private async monitor(organization: OrganizationAccess, slug: string): Promise<MonitorRow> {
    const row = await this.monitors.findBySlugOrId(this.database, organization.id, slug);
    if (!row) throw new NotFoundException();
    return row;
  }

  private async serialize(rows: readonly MonitorRow[], environments: readonly string[]) {
    const ids = rows.map((row) => row.id);
    const environmentRows = (await this.monitors.environmentsOf(this.database, ids)).filter(
      (row) => environments.length === 0 || environments.includes(row.environment),
    );
    const projects = await this.monitors.projectsById(
      this.database,
      rows.map((row) => row.project_id),
    );
    return rows.map((row) =>
      serializeMonitor(
        row,
        environmentRows.filter((environment) => environment.monitor_id === row.id),
        projects.get(row.project_id),
      ),
    );
  }
}

function inputOf(body: MonitorBody | undefined): MonitorInput {
  if (!body || typeof body !== 'object') return {};
  return { name: body.name, slug: body.slug, status: body.status, isMuted: body.isMuted, config: body.config };
}

function epochOf(value: unknown, fallback: number): number {
  if (value === undefined || value === '') return Math.floor(fallback);
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new BadRequestException({ detail: 'since and until must be epoch seconds' });
  return Math.floor(parsed);
}
