import { Readable } from 'node:stream';
import { Controller, Delete, ForbiddenException, Get, HttpCode, NotFoundException, Param, Query, StreamableFile } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { isNumericId, normalizeEventId } from '@faultline/kernel';
import { MayReadAttachmentsQuery } from '@faultline/identity';
import { CurrentOrganization, CurrentPrincipal, type OrganizationAccess, Paginate, Pagination, type Principal, RequireScopes } from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { downloadDisposition } from '../domain/event-attachment';
import { type EventAttachmentRow, EventAttachmentsRepository } from '../infrastructure/event-attachments.repository';
import { IssueReadModel } from '../infrastructure/issue-read-model.repository';

/** Sentry's answer when a role below the organization's `attachmentsRole` asks for an attachment. */
const NOT_PERMITTED = 'You do not have permission to perform this action.';

/**
 * An event's attachments, as Sentry's API serves them. Listing needs only read access; an
 * attachment itself (its details, its bytes, deleting it) needs the organization's
 * `attachmentsRole` too, as Sentry's `EventAttachmentDetailsPermission` decides.
 */
@ApiTags('Events')
@ApiBearerAuth()
@Controller('api/0/projects/:organization_id_or_slug/:project_id_or_slug/events/:event_id/attachments')
export class EventAttachmentsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly readModel: IssueReadModel,
    private readonly attachments: EventAttachmentsRepository,
  ) {}

  /** By name; `query` keeps those whose name contains it. */
  @Get()
  @RequireScopes('event:read', 'project:read')
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
    @Paginate() page: Pagination,
    @Query('query') query?: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    const id = await this.storedEventId(project, eventId);
    const rows = await this.attachments.list(
      project.id,
      id,
      { offset: page.offset, limit: page.fetchLimit },
      typeof query === 'string' && query ? query : undefined,
    );
    return page.respond(rows).map(serializeAttachment);
  }

  /** Its details, or with `download` its bytes exactly as the SDK sent them, read a chunk at a time. */
  @Get(':attachment_id')
  @RequireScopes('event:read', 'project:read')
  async detail(
    @CurrentPrincipal() principal: Principal,
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
    @Param('attachment_id') attachmentId: string,
    @Query('download') download?: string,
  ) {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    await this.requireAttachmentsRole(principal, organization);
    const id = await this.storedEventId(project, eventId);
    const attachment = await this.find(project.id, id, attachmentId);
    if (download === undefined) return serializeAttachment(attachment);
    return new StreamableFile(Readable.from(this.chunks(attachment.id), { objectMode: false, highWaterMark: 1 }), {
      type: attachment.content_type,
      length: attachment.size,
      disposition: downloadDisposition(attachment.name),
    });
  }

  @Delete(':attachment_id')
  @HttpCode(204)
  @RequireScopes('project:admin')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('event_id') eventId: string,
    @Param('attachment_id') attachmentId: string,
  ): Promise<void> {
    const project = await requireProject(this.queries, organization.id, projectIdOrSlug);
    await this.requireAttachmentsRole(principal, organization);
    const id = normalizeEventId(eventId);
    if (!id || !isNumericId(attachmentId) || !(await this.attachments.delete(project.id, id, attachmentId))) {
      throw new NotFoundException({ detail: 'Attachment not found' });
    }
  }

  /** One chunk in memory at a time; the stream asks for the next only when the client has taken the last. */
  private async *chunks(attachmentId: string): AsyncGenerator<Buffer> {
    for (let position = 0; ; position++) {
      const chunk = await this.attachments.chunk(attachmentId, position);
      if (!chunk) return;
      yield chunk;
    }
  }

  /** The event's normalised id, once it is found stored in the project (Sentry answers 404 before that). */
  private async storedEventId(project: ProjectSummary, eventId: string): Promise<string> {
    const event = await this.readModel.event({ projectId: project.id }, eventId);
    if (!event) throw new NotFoundException({ detail: 'Event not found' });
    return event.event_id;
  }

  private async find(projectId: string, eventId: string, attachmentId: string): Promise<EventAttachmentRow> {
    const attachment = isNumericId(attachmentId) ? await this.attachments.find(projectId, eventId, attachmentId) : null;
    if (!attachment) throw new NotFoundException({ detail: 'Attachment not found' });
    return attachment;
  }

  private async requireAttachmentsRole(principal: Principal, organization: OrganizationAccess): Promise<void> {
    const allowed = await this.queries.execute<MayReadAttachmentsQuery, boolean>(
      new MayReadAttachmentsQuery(organization.id, { isSuperuser: principal.isSuperuser, userId: principal.userId, memberRole: organization.role }),
    );
    if (!allowed) throw new ForbiddenException({ detail: NOT_PERMITTED });
  }
}

/** Sentry's EventAttachment serializer. */
export function serializeAttachment(row: EventAttachmentRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    type: row.type,
    name: row.name,
    mimetype: row.content_type,
    dateCreated: row.date_created.toISOString(),
    size: row.size,
    headers: { 'Content-Type': row.content_type },
    sha1: row.sha1,
  };
}
