import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
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
import { isNumericId } from '@faultline/kernel';
import { CreateMetricAlertRuleCommand } from '../application/commands/create-metric-alert-rule/create-metric-alert-rule.command';
import { DeleteMetricAlertRuleCommand } from '../application/commands/delete-metric-alert-rule/delete-metric-alert-rule.command';
import { UpdateMetricAlertRuleCommand } from '../application/commands/update-metric-alert-rule/update-metric-alert-rule.command';
import { serializeMetricRule } from '../domain';
import { IncidentsRepository } from '../infrastructure/incidents.repository';
import { IssueAlertFiresRepository } from '../infrastructure/issue-alert-fires.repository';
import { type MetricRuleRow, MetricRulesRepository, metricRuleView } from '../infrastructure/metric-rules.repository';
import { MetricAlertRuleDto, UpdateMetricAlertRuleDto } from './alert-rules.dto';
import { serializeActivity, serializeIncident } from './alert-rules.serializers';

/** Metric alert rules of an organization on Sentry's paths. */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class MetricAlertRulesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly rules: MetricRulesRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/alert-rules')
  @RequireScopes('alerts:read', 'org:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const rows = page.respond(await this.rules.list(this.database, organization.id, page.offset, page.fetchLimit));
    return rows.map((row) => serializeMetricRule(metricRuleView(row)));
  }

  @Post('organizations/:organization_id_or_slug/alert-rules')
  @HttpCode(201)
  @RequireScopes('alerts:write', 'org:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: MetricAlertRuleDto) {
    const row = await this.commands.execute<CreateMetricAlertRuleCommand, MetricRuleRow>(
      new CreateMetricAlertRuleCommand(organization.id, { ...body }, principal.userId ?? null),
    );
    return serializeMetricRule(metricRuleView(row));
  }

  @Get('organizations/:organization_id_or_slug/alert-rules/:alert_rule_id')
  @RequireScopes('alerts:read', 'org:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('alert_rule_id') ruleId: string) {
    const row = await this.rules.find(this.database, organization.id, ruleId);
    if (!row) throw new NotFoundException();
    return serializeMetricRule(metricRuleView(row));
  }

  @Put('organizations/:organization_id_or_slug/alert-rules/:alert_rule_id')
  @RequireScopes('alerts:write', 'org:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('alert_rule_id') ruleId: string,
    @Body() body: UpdateMetricAlertRuleDto,
  ) {
    const row = await this.commands.execute<UpdateMetricAlertRuleCommand, MetricRuleRow>(
      new UpdateMetricAlertRuleCommand(organization.id, ruleId, { ...body }, principal.userId ?? null),
    );
    return serializeMetricRule(metricRuleView(row));
  }

  @Delete('organizations/:organization_id_or_slug/alert-rules/:alert_rule_id')
  @HttpCode(204)
  @RequireScopes('alerts:write', 'org:write')
  async remove(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('alert_rule_id') ruleId: string,
  ): Promise<void> {
    await this.commands.execute(new DeleteMetricAlertRuleCommand(organization.id, ruleId, principal.userId ?? null));
  }
}

/** The incidents of metric alert rules (Sentry's paths) and their moves with the webhooks each queued. */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class IncidentsController {
  constructor(
    private readonly database: Database,
    private readonly rules: MetricRulesRepository,
    private readonly incidents: IncidentsRepository,
    private readonly fires: IssueAlertFiresRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/incidents')
  @RequireScopes('alerts:read', 'org:read')
  @ApiQuery({ name: 'alertRule', required: false, description: 'only the incidents of this metric alert rule' })
  @ApiQuery({ name: 'status', required: false, enum: ['open', 'closed'] })
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Paginate() page: Pagination,
    @Query('alertRule') alertRule?: string,
    @Query('status') status?: string,
  ) {
    if (status !== undefined && status !== 'open' && status !== 'closed') throw new BadRequestException({ detail: 'status must be open or closed' });
    if (alertRule !== undefined && !isNumericId(alertRule)) throw new BadRequestException({ detail: 'alertRule must be a rule id' });
    const rows = page.respond(await this.incidents.list(this.database, organization.id, { ruleId: alertRule, status }, page.offset, page.fetchLimit));
    const rules = new Map<string, MetricRuleRow | undefined>();
    for (const ruleId of new Set(rows.map((row) => String(row.rule_id)))) rules.set(ruleId, await this.rules.find(this.database, organization.id, ruleId));
    return rows.map((row) => {
      const rule = rules.get(String(row.rule_id));
      return serializeIncident(row, rule ? serializeMetricRule(metricRuleView(rule)) : null, rule?.project_slugs ?? []);
    });
  }

  @Get('organizations/:organization_id_or_slug/incidents/:incident_identifier')
  @RequireScopes('alerts:read', 'org:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('incident_identifier') identifier: string) {
    const row = await this.incidents.find(this.database, organization.id, identifier);
    if (!row) throw new NotFoundException();
    const rule = await this.rules.find(this.database, organization.id, String(row.rule_id));
    return serializeIncident(row, rule ? serializeMetricRule(metricRuleView(rule)) : null, rule?.project_slugs ?? []);
  }

  @Get('organizations/:organization_id_or_slug/incidents/:incident_identifier/activity')
  @RequireScopes('alerts:read', 'org:read')
  async activity(@CurrentOrganization() organization: OrganizationAccess, @Param('incident_identifier') identifier: string) {
    const row = await this.incidents.find(this.database, organization.id, identifier);
    if (!row) throw new NotFoundException();
    const activity = await this.incidents.activity(this.database, String(row.id));
    const deliveries = await this.fires.deliveries(
      this.database,
      activity.flatMap((a) => a.delivery_causes),
    );
    return activity.map((a) => serializeActivity(a, deliveries));
  }
}
