import { BadRequestException, Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FindIssueQuery, type IssueSummary } from '@faultline/issues';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { TicketRepository, type TicketRow } from '../infrastructure/ticket.repository';

const STATUSES = ['pending', 'opened', 'failed'] as const;

/** One ticket as the API shows it. */
export class TicketResponse {
  @ApiProperty({ description: 'The issue the ticket is for.' }) issueId: string;
  @ApiProperty() shortId: string;
  @ApiProperty({ enum: STATUSES, description: '`pending` until the tracker answers; `failed` when it refused the ticket.' }) status: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: "The tracker's id of the ticket." }) externalId: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) url: string | null;
  @ApiProperty() attempts: number;
  @ApiPropertyOptional({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty() dateCreated: string;
  @ApiPropertyOptional({ nullable: true, type: String }) dateOpened: string | null;
}

function serialize(row: TicketRow): TicketResponse {
  return {
    issueId: String(row.issue_id),
    shortId: row.short_id,
    status: row.status,
    externalId: row.external_id,
    url: row.url,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    dateCreated: new Date(row.created_at).toISOString(),
    dateOpened: row.opened_at ? new Date(row.opened_at).toISOString() : null,
  };
}

/**
 * The tickets the module opened for an issue. The issue is looked up through the issues context's
 * public query, so tenancy is the core's: an issue of another organization is a 404.
 */
@ApiTags('Ticket tracker')
@ApiBearerAuth()
@Controller('api/0')
export class TicketsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly database: Database,
    private readonly tickets: TicketRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/tickets')
  @RequireScopes('event:read')
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  @ApiOkResponse({ type: [TicketResponse] })
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueIdOrShortId: string,
    @Paginate() page: Pagination,
    @Query('status') status?: string,
  ): Promise<TicketResponse[]> {
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
      throw new BadRequestException({ detail: `status must be one of ${STATUSES.join(', ')}` });
    }
    const issue = await this.queries.execute<FindIssueQuery, IssueSummary | null>(new FindIssueQuery(organization.id, issueIdOrShortId));
    if (!issue) throw new NotFoundException();
    const rows = await this.tickets.listForIssue(this.database, organization.id, issue.id, status, page.offset, page.fetchLimit);
    return page.respond(rows).map(serialize);
  }
}
