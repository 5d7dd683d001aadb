import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { FindOrganizationProjectsQuery, type ProjectSummary } from '@faultline/projects';
import { serializeMetricRule } from '../domain';
import { CombinedRulesRepository } from '../infrastructure/combined-rules.repository';
import { IssueRulesRepository } from '../infrastructure/issue-rules.repository';
import { MetricRulesRepository, metricRuleView } from '../infrastructure/metric-rules.repository';
import { serializeIssueRule } from './alert-rules.serializers';

/**
 * Sentry's combined alert rule list of an organization: issue rules of all its projects and metric
 * rules together, newest first, each in its own list's shape with `type` (`rule` or `alert_rule`).
 */
@ApiTags('Alert rules')
@ApiBearerAuth()
@Controller('api/0')
export class CombinedRulesController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly combined: CombinedRulesRepository,
    private readonly issueRules: IssueRulesRepository,
    private readonly metricRules: MetricRulesRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/combined-rules')
  @RequireScopes('alerts:read', 'org:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const projects = await this.queries.execute<FindOrganizationProjectsQuery, ProjectSummary[]>(new FindOrganizationProjectsQuery(organization.id));
    const projectIds = projects.map((project) => project.id);
    const keys = page.respond(await this.combined.page(this.database, organization.id, projectIds, page.offset, page.fetchLimit));
    const idsOf = (type: string) => keys.filter((key) => key.type === type).map((key) => key.id);
    const slugs = new Map(projects.map((project) => [project.id, project.slug]));
    const issueRules = new Map((await this.issueRules.byIds(this.database, projectIds, idsOf('rule'))).map((row) => [String(row.id), row]));
    const metricRules = new Map((await this.metricRules.byIds(this.database, organization.id, idsOf('alert_rule'))).map((row) => [String(row.id), row]));
    // A rule deleted between the two reads is left out of the page.
    return keys.flatMap((key): Array<Record<string, unknown>> => {
      if (key.type === 'rule') {
        const row = issueRules.get(key.id);
        return row ? [{ ...serializeIssueRule(row, slugs.get(String(row.project_id)) ?? ''), type: 'rule' }] : [];
      }
      const row = metricRules.get(key.id);
      return row ? [{ ...serializeMetricRule(metricRuleView(row)), type: 'alert_rule' }] : [];
    });
  }
}
