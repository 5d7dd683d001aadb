import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  eventTimeRange,
  one,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { CreateIssueAlertRuleCommand } from '../application/commands/create-issue-alert-rule/create-issue-alert-rule.command';
import { DeleteIssueAlertRuleCommand } from '../application/commands/delete-issue-alert-rule/delete-issue-alert-rule.command';
import { UpdateIssueAlertRuleCommand } from '../application/commands/update-issue-alert-rule/update-issue-alert-rule.command';
import { IssueAlertFiresRepository } from '../infrastructure/issue-alert-fires.repository';
import { type IssueRuleRow, IssueRulesRepository } from '../infrastructure/issue-rules.repository';
import { IssueAlertRuleDto, TestNotificationDto, UpdateIssueAlertRuleDto } from './alert-rules.dto';
import { issueRuleConfiguration } from './issue-rule-catalogue';
import { SendTestNotificationCommand } from '../application/commands/send-test-notification/send-test-notification.command';
import { serializeFire, serializeIssueRule } from './alert-rules.serializers';

const DEFAULT_HISTORY_DAYS = 14;
/** The longest range the rule stats answer: one bucket an hour, so at most 2,161 buckets. */
const MAX_STATS_DAYS = 90;

/** Issue alert rules of a project on Sentry's paths, with their fire history. */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class IssueAlertRulesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly rules: IssueRulesRepository,
    private readonly fires: IssueAlertFiresRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules')
  @RequireScopes('alerts:read', 'project:read')
  @ApiQuery({ name: 'expand', required: false, description: "`lastTriggered`: each rule's last fire (null when it never fired)" })
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
    @Query('expand') expand?: string | string[],
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rows = page.respond(await this.rules.list(this.database, project.id, page.offset, page.fetchLimit));
    if (![expand ?? []].flat().includes('lastTriggered')) return rows.map((row) => serializeIssueRule(row, project.slug));
    const lastFired = await this.fires.lastFired(
      this.database,
      rows.map((row) => String(row.id)),
    );
    return rows.map((row) => ({ ...serializeIssueRule(row, project.slug), lastTriggered: lastFired.get(String(row.id))?.toISOString() ?? null }));
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/rules')
  @HttpCode(201)
  @RequireScopes('alerts:write', 'project:write')
  async create(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Body() body: IssueAlertRuleDto,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const row = await this.commands.execute<CreateIssueAlertRuleCommand, IssueRuleRow>(
      new CreateIssueAlertRuleCommand(organization.id, project.id, { ...body }, principal.userId ?? null),
    );
    return serializeIssueRule(row, project.slug);
  }

  /**
   * Sentry's rule editor configuration: the conditions, filters and actions with their form fields.
   * Service-app actions are not listed here: they name an installation (`sentryAppInstallationUuid`)
   * from the organization's sentry-app-installations, and its app's `alert-rule-action` settings.
   */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules/configuration')
  @RequireScopes('alerts:read', 'project:read')
  async configuration(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') projectIdOrSlug: string) {
    await requireProject(this.queries, organization.id, projectIdOrSlug);
    return issueRuleConfiguration();
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id')
  @RequireScopes('alerts:read', 'project:read')
  async detail(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    return serializeIssueRule(await this.rule(project, ruleId), project.slug);
  }

  @Put('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id')
  @RequireScopes('alerts:write', 'project:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
    @Body() body: UpdateIssueAlertRuleDto,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const row = await this.commands.execute<UpdateIssueAlertRuleCommand, IssueRuleRow>(
      new UpdateIssueAlertRuleCommand(organization.id, project.id, ruleId, { ...body }, principal.userId ?? null),
    );
    return serializeIssueRule(row, project.slug);
  }

  /** Sentry answers 202 (it deletes rules in the background); here it is gone when this answers. */
  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id')
  @HttpCode(202)
  @RequireScopes('alerts:write', 'project:write')
  async remove(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
  ): Promise<void> {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    await this.commands.execute(new DeleteIssueAlertRuleCommand(project.id, ruleId, principal.userId ?? null));
  }

  /** Sentry's rule group history: the issues the rule fired for, how often and when last. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id/group-history')
  @RequireScopes('alerts:read', 'project:read')
  @ApiQuery({ name: 'start', required: false, description: 'ISO 8601; default 14 days before end' })
  @ApiQuery({ name: 'end', required: false, description: 'ISO 8601; default now' })
  async groupHistory(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
    @Paginate() page: Pagination,
    @Query('start') start?: string,
    @Query('end') end?: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rule = await this.rule(project, ruleId);
    const until = end === undefined ? this.clock.now() : new Date(end);
    const since = start === undefined ? new Date(until.getTime() - DEFAULT_HISTORY_DAYS * 86_400_000) : new Date(start);
    if (Number.isNaN(until.getTime()) || Number.isNaN(since.getTime())) throw new BadRequestException({ detail: 'start and end must be ISO 8601 timestamps' });
    if (since > until) throw new BadRequestException({ detail: 'start must be before end' });
    const rows = page.respond(await this.fires.groupHistory(this.database, String(rule.id), since, until, page.offset, page.fetchLimit));
    return rows.map((row) => ({
      group: {
        id: String(row.issue_id),
        shortId: row.short_id,
        title: row.title,
        culprit: row.culprit,
        level: row.level,
        status: row.status,
        project: { id: project.id, slug: project.slug, name: project.name },
      },
      count: row.count,
      lastTriggered: new Date(row.last_triggered).toISOString(),
      eventId: row.event_id,
    }));
  }

  /** Sentry's rule stats: the rule's fires per hour over `statsPeriod` (default 14d) or `start` and `end`, zero-filled. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id/stats')
  @RequireScopes('alerts:read', 'project:read')
  @ApiQuery({ name: 'statsPeriod', required: false, description: 'How far back from now: 24h, 14d, … (default 14d, at most 90d)' })
  @ApiQuery({ name: 'start', required: false, description: 'ISO 8601, with end instead of statsPeriod' })
  @ApiQuery({ name: 'end', required: false, description: 'ISO 8601' })
  async stats(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
    @Query('statsPeriod') statsPeriod?: string,
    @Query('start') start?: string,
    @Query('end') end?: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rule = await this.rule(project, ruleId);
    const range = eventTimeRange(this.clock.now(), { statsPeriod: one(statsPeriod, 'statsPeriod'), start: one(start, 'start'), end: one(end, 'end') });
    const since = new Date(range.start);
    const until = new Date(range.end);
    if (until.getTime() - since.getTime() > MAX_STATS_DAYS * 86_400_000 + 1) {
      throw new BadRequestException({ detail: `The range of rule stats is at most ${MAX_STATS_DAYS} days.` });
    }
    const buckets = await this.fires.hourlyCounts(this.database, String(rule.id), since, until);
    return buckets.map((bucket) => ({ date: bucket.date.toISOString(), count: bucket.count }));
  }

  /** Every fire of the rule, newest first: when, for which issue and event, and the webhooks it queued. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/rules/:rule_id/history')
  @RequireScopes('alerts:read', 'project:read')
  async history(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('rule_id') ruleId: string,
    @Paginate() page: Pagination,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const rule = await this.rule(project, ruleId);
    const fires = page.respond(await this.fires.list(this.database, String(rule.id), page.offset, page.fetchLimit));
    const deliveries = await this.fires.deliveries(
      this.database,
      fires.flatMap((fire) => fire.delivery_causes),
    );
    return fires.map((fire) => serializeFire(fire, deliveries));
  }

  private async rule(project: ProjectSummary, ruleId: string): Promise<IssueRuleRow> {
    const rule = await this.rules.find(this.database, project.id, ruleId);
    if (!rule) throw new NotFoundException();
    return rule;
  }
}

/**
 * Sentry's "send test notification" for the rule editor: the mail and chat actions given send now,
 * about the project's most recently seen issue (webhook actions are not tested here).
 */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class RuleActionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/rule-actions')
  @HttpCode(200)
  @RequireScopes('alerts:write', 'project:write')
  async test(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') projectIdOrSlug: string, @Body() body: TestNotificationDto) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const queued = await this.commands.execute<SendTestNotificationCommand, number>(new SendTestNotificationCommand(organization.id, project.id, body.actions));
    return { queued };
  }
}
