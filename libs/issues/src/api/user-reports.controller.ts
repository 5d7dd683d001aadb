import { BadRequestException, Body, ConflictException, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, normalizeEventId } from '@faultline/kernel';
import { CurrentOrganization, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { IssueReadModel } from '../infrastructure/issue-read-model.repository';
import { type UserReportRow, UserReportsRepository } from '../infrastructure/user-reports.repository';
import { UserFeedbackDto } from './issues.dto';

/** Sentry's user report: `{id, eventID, name, email, comments, dateCreated, user, event, issue}`. */
function serializeUserReport(row: UserReportRow) {
  const user = row.user ?? null;
  return {
    id: row.id,
    eventID: row.event_id,
    name: row.name,
    email: row.email,
    comments: row.comments,
    dateCreated: new Date(row.date_created).toISOString(),
    user: user
      ? {
          id: user.id ?? null,
          email: user.email ?? null,
          username: user.username ?? null,
          ipAddress: user.ipAddress ?? user.ip_address ?? null,
          name: user.name ?? null,
        }
      : null,
    event: { id: row.event_id, eventID: row.event_id },
    issue: row.issue_id ? { id: row.issue_id } : null,
  };
}

/**
 * User feedback (Sentry's user reports): sent by the SDKs' `user_report` and `feedback` items or
 * the legacy user-feedback API, listed per issue (by the events they are about) and per project.
 */
@ApiTags('User Feedback')
@ApiBearerAuth()
@Controller('api/0')
export class UserReportsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly readModel: IssueReadModel,
    private readonly reports: UserReportsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/user-reports')
  @RequireScopes('event:read')
  async issueReports(@CurrentOrganization() organization: OrganizationAccess, @Param('issue_id') issueId: string, @Paginate() page: Pagination) {
    const issue = await this.readModel.require(organization.id, issueId);
    return page.respond(await this.reports.forIssue(issue.id, page.offset, page.fetchLimit)).map(serializeUserReport);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/user-reports')
  @RequireScopes('event:read')
  async projectReports(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    return page.respond(await this.reports.forProject(project.id, page.offset, page.fetchLimit)).map(serializeUserReport);
  }

  /**
   * The legacy API: a report about one event; sending it again for the same event replaces it
   * within USER_REPORT_UPDATE_WINDOW_SECONDS of its first arrival, and answers 409 after, as Sentry does.
   */
  @Post('projects/:organization_id_or_slug/:project_id_or_slug/user-feedback')
  @HttpCode(200)
  @RequireScopes('project:write')
  async submit(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') projectIdOrSlug: string, @Body() body: UserFeedbackDto) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const eventId = normalizeEventId(body.event_id);
    if (!eventId) throw new BadRequestException({ detail: 'event_id must be the 32 hexadecimal digits of an event id.' });
    const refused = await this.reports.record([
      {
        projectId: project.id,
        reportId: eventId,
        eventId,
        name: body.name,
        email: body.email,
        comments: body.comments,
        receivedAt: this.clock.now().toISOString(),
      },
    ]);
    if (refused.length > 0) throw new ConflictException({ detail: 'Feedback for this event cannot be modified.' });
    return serializeUserReport((await this.reports.forReport(project.id, eventId)) as UserReportRow);
  }
}
