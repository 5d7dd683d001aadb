import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { FindIssueQuery, type IssueSummary } from '@faultline/issues';
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
import { LinkExternalIssueCommand } from '../application/commands/link-external-issue/link-external-issue.command';
import { UnlinkExternalIssueCommand } from '../application/commands/unlink-external-issue/unlink-external-issue.command';
import { type ExternalIssueRow, ExternalIssuesRepository } from '../infrastructure/external-issues.repository';
import { type InstallationView, InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationsAccess } from './integrations-access';
import { serializeExternalIssue } from './integrations.serializers';

const MAX_FIELD = 2048;

/** An installation's links between issues and its tickets. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class ExternalIssuesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly installations: InstallationsRepository,
    private readonly links: ExternalIssuesRepository,
    private readonly access: IntegrationsAccess,
  ) {}

  @Get('sentry-app-installations/:uuid/external-issues')
  @RequireScopes()
  async list(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string, @Paginate() page: Pagination) {
    const installation = await this.installation(principal, uuid, 'event:read');
    const rows = await this.links.listForInstallation(this.database, installation.uuid, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeExternalIssue);
  }

  /** `{issueId, webUrl, project, identifier}`; an issue of another organization is a 404; linking again updates the link. 200, as Sentry answers. */
  @Post('sentry-app-installations/:uuid/external-issues')
  @HttpCode(200)
  @RequireScopes()
  async link(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string, @Body() body: Record<string, unknown>) {
    const installation = await this.installation(principal, uuid, 'event:write');
    const issueId = body?.issueId;
    if (typeof issueId !== 'number' || !Number.isSafeInteger(issueId) || issueId <= 0) {
      throw new BadRequestException({ detail: 'issueId is required, and must be an integer' });
    }
    const fields = {} as Record<'webUrl' | 'project' | 'identifier', string>;
    for (const key of ['webUrl', 'project', 'identifier'] as const) {
      const value = body[key];
      if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_FIELD) {
        throw new BadRequestException({
          detail: `${key} is required, and must be a string of at most ${MAX_FIELD} characters`,
          errors: { [key]: ['This field is required.'] },
        });
      }
      fields[key] = value;
    }
    if (!/^https?:\/\/\S+$/i.test(fields.webUrl))
      throw new BadRequestException({ detail: 'webUrl must be an absolute http(s) URL', errors: { webUrl: ['Enter a valid URL.'] } });
    const row = await this.commands.execute<LinkExternalIssueCommand, ExternalIssueRow>(
      new LinkExternalIssueCommand(installation.uuid, { issueId: String(issueId), ...fields }),
    );
    return serializeExternalIssue(row);
  }

  @Delete('sentry-app-installations/:uuid/external-issues/:id')
  @HttpCode(204)
  @RequireScopes()
  async unlink(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string, @Param('id') id: string): Promise<void> {
    const installation = await this.installation(principal, uuid, 'event:admin');
    await this.commands.execute(new UnlinkExternalIssueCommand(installation.uuid, id));
  }

  private async installation(principal: Principal, uuid: string, scope: 'event:read' | 'event:write' | 'event:admin'): Promise<InstallationView> {
    const installation = await this.installations.find(this.database, uuid);
    if (!installation || installation.status === 'deleted') throw new NotFoundException();
    await this.access.require(principal, String(installation.organization_id), scope);
    return installation;
  }
}

/** The external tickets linked to an issue, across apps. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class IssueExternalIssuesController {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly links: ExternalIssuesRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/external-issues')
  @RequireScopes('event:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueIdOrShortId: string) {
    const issue = await this.queries.execute<FindIssueQuery, IssueSummary | null>(new FindIssueQuery(organization.id, issueIdOrShortId));
    if (!issue) throw new NotFoundException();
    return (await this.links.listForIssue(this.database, organization.id, issue.id)).map(serializeExternalIssue);
  }
}
