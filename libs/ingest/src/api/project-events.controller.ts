import { createHash } from 'node:crypto';
import { BadRequestException, Controller, Get, Inject, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { tagKeyLabel } from '@faultline/issues';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import type { FastifyReply } from 'fastify';
import { resolveStatsWindow } from '../domain';
import { type EventUserField, type EventUserRow, ProjectReadModelsRepository } from '../infrastructure/project-read-models.repository';

const STATS = ['received', 'rejected', 'blacklisted', 'generated'];
/** More keys than a search box can suggest is a sign of values sent as keys; the first ones do. */
const TAG_KEYS_LIMIT = 1000;
const USER_QUERY_FIELDS: Record<string, EventUserField> = { id: 'user_ident', email: 'email', username: 'username', ip: 'ip_address' };

/** The spec's project endpoints answered from the read models the event processor keeps. */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class ProjectEventsController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly readModels: ProjectReadModelsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `[[bucket_start, count], ...]`, every bucket present; timestamps in Sentry's `<seconds>.0` form. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/stats')
  @RequireScopes('project:read')
  async stats(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Query() query: Record<string, string | undefined>,
    @Res() reply: FastifyReply,
  ) {
    const project = await this.project(organization, idOrSlug);
    const stat = query.stat ?? 'received';
    if (!STATS.includes(stat)) throw new BadRequestException({ detail: 'Invalid stat' });
    const window = resolveStatsWindow({ since: query.since, until: query.until, resolution: query.resolution }, this.clock.now().getTime() / 1000);
    if ('error' in window) throw new BadRequestException({ detail: window.error });
    const rows = await this.readModels.statBuckets(this.database, project.id, stat, window.resolution, window.start, window.end);
    const counts = new Map(rows.map((row) => [row.bucket.getTime() / 1000, Number(row.count)]));
    const points: string[] = [];
    for (let at = window.start; at <= window.end; at += window.step) points.push(`[${at}.0,${counts.get(at) ?? 0}]`);
    return reply.type('application/json; charset=utf-8').send(`[${points.join(',')}]`);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/users')
  @RequireScopes('project:read')
  async users(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Paginate() page: Pagination,
    @Query('query') search?: string,
  ) {
    const project = await this.project(organization, idOrSlug);
    let filter: { field: EventUserField; value: string } | undefined;
    if (search) {
      const match = /^(\w+):(.+)$/.exec(search);
      const field = match && USER_QUERY_FIELDS[match[1]];
      if (!match || !field) throw new BadRequestException({ detail: 'query must be field:value with field one of id, email, username, ip' });
      filter = { field, value: match[2] };
    }
    const rows = await this.readModels.users(this.database, project.id, filter, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeUser);
  }

  /** The project's tag keys (Sentry's `GET …/tags/`) with their labels. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/tags')
  @RequireScopes('project:read')
  async tagKeys(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string) {
    const project = await this.project(organization, idOrSlug);
    const rows = await this.readModels.tagKeys(this.database, project.id, TAG_KEYS_LIMIT);
    return rows.map((row) => ({ key: row.key, name: tagKeyLabel(row.key), canDelete: false }));
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/tags/:key/values')
  @RequireScopes('project:read')
  async tagValues(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') idOrSlug: string,
    @Param('key') key: string,
    @Paginate() page: Pagination,
    @Query('query') search?: string,
  ) {
    const project = await this.project(organization, idOrSlug);
    if (!(await this.readModels.tagKeyExists(this.database, project.id, key))) throw new NotFoundException();
    const rows = await this.readModels.tagValues(this.database, project.id, key, search || null, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => ({
      key,
      name: row.value,
      value: row.value,
      count: Number(row.times_seen),
      lastSeen: row.last_seen.toISOString(),
      firstSeen: row.first_seen.toISOString(),
    }));
  }

  private project(organization: OrganizationAccess, idOrSlug: string): Promise<ProjectSummary> {
    return requireProject(this.queries, organization.id, idOrSlug);
  }
}

/** Sentry's avatar of an event user: the Gravatar of its address (of the empty address when it has none). */
function gravatarUrl(email: string | null): string {
  return `https://gravatar.com/avatar/${createHash('md5')
    .update((email ?? '').toLowerCase())
    .digest('hex')}?s=32&d=mm`;
}

/** Sentry's event user. Its schema types the attributes as strings, so what the SDK did not report is empty, not null. */
function serializeUser(row: EventUserRow) {
  const [kind, value] = row.user_ident
    ? ['id', row.user_ident]
    : row.username
      ? ['username', row.username]
      : row.email
        ? ['email', row.email]
        : ['ip', row.ip_address ?? ''];
  return {
    id: row.hash,
    tagValue: `${kind}:${value}`,
    identifier: row.user_ident ?? '',
    username: row.username ?? '',
    email: row.email ?? '',
    name: row.name ?? row.username ?? row.email ?? row.user_ident ?? row.ip_address ?? '',
    ipAddress: row.ip_address ?? '',
    avatarUrl: gravatarUrl(row.email),
    hash: row.hash,
    dateCreated: row.date_created.toISOString(),
  };
}
