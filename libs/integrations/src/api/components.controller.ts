import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FindIssueQuery, type IssueSummary } from '@faultline/issues';
import { CurrentOrganization, CurrentPrincipal, Database, type OrganizationAccess, type Principal, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { RunExternalIssueActionCommand } from '../application/commands/run-external-issue-action/run-external-issue-action.command';
import { FetchSelectOptionsQuery, type SelectOptions } from '../application/queries/fetch-select-options/fetch-select-options.query';
import type { ExternalIssueRow } from '../infrastructure/external-issues.repository';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationsAccess } from './integrations-access';
import { serializeExternalIssue } from './integrations.serializers';

/** UI components: the service asks the app for a select field's options (Sentry's `external-requests`). */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class ExternalRequestsController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly installations: InstallationsRepository,
    private readonly access: IntegrationsAccess,
  ) {}

  @Get('sentry-app-installations/:uuid/external-requests')
  @RequireScopes()
  @ApiQuery({ name: 'uri', required: true })
  @ApiQuery({ name: 'projectId', required: false })
  @ApiQuery({ name: 'query', required: false })
  @ApiQuery({ name: 'dependentData', required: false })
  async options(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid') uuid: string,
    @Query('uri') uri?: string,
    @Query('projectId') projectId?: string,
    @Query('query') query?: string,
    @Query('dependentData') dependentData?: string,
  ): Promise<SelectOptions> {
    const installation = await this.installations.find(this.database, uuid);
    if (!installation || installation.status === 'deleted') throw new NotFoundException();
    const organization = await this.access.require(principal, String(installation.organization_id), 'event:read');
    if (!uri) throw new BadRequestException({ detail: 'uri is required' });
    const project = projectId ? await requireProject(this.queries, organization.id, projectId) : null;
    return this.queries.execute<FetchSelectOptionsQuery, SelectOptions>(
      new FetchSelectOptionsQuery(installation.uuid, uri, project ? { id: project.id, slug: project.slug } : null, query, dependentData),
    );
  }
}

/** UI components: create or link a ticket in the app from an issue; the link the app answers is kept. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class ExternalIssueActionsController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly installations: InstallationsRepository,
  ) {}

  @Post('organizations/:organization_id_or_slug/issues/:issue_id/sentry-app-installations/:uuid/external-issue-actions')
  @HttpCode(200)
  @RequireScopes('event:write')
  async run(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('issue_id') issueIdOrShortId: string,
    @Param('uuid') uuid: string,
    @Body() body: Record<string, unknown>,
  ) {
    const issue = await this.queries.execute<FindIssueQuery, IssueSummary | null>(new FindIssueQuery(organization.id, issueIdOrShortId));
    const installation = await this.installations.find(this.database, uuid);
    if (!issue || !installation || installation.status === 'deleted' || String(installation.organization_id) !== organization.id) throw new NotFoundException();
    const { action, uri, ...fields } = body ?? {};
    if (action !== 'create' && action !== 'link') throw new BadRequestException({ detail: 'action must be create or link' });
    if (typeof uri !== 'string' || uri === '') throw new BadRequestException({ detail: 'uri is required' });
    const row = await this.commands.execute<RunExternalIssueActionCommand, ExternalIssueRow>(
      new RunExternalIssueActionCommand(
        installation.uuid,
        { id: issue.id, projectId: issue.projectId, projectSlug: issue.projectSlug, organizationSlug: organization.slug },
        action,
        uri,
        fields,
        principal.userId ?? null,
      ),
    );
    return serializeExternalIssue(row);
  }
}
