import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, sha256Hex } from '@faultline/kernel';
import { CurrentOrganization, CurrentPrincipal, Database, type OrganizationAccess, type Principal, RequireScopes } from '@faultline/platform';
import { AcceptProjectTransferCommand } from '../application/commands/accept-project-transfer/accept-project-transfer.command';
import type { AcceptedTransfer } from '../application/commands/accept-project-transfer/accept-project-transfer.handler';
import { RequestProjectTransferCommand } from '../application/commands/request-project-transfer/request-project-transfer.command';
import type { RequestedTransfer } from '../application/commands/request-project-transfer/request-project-transfer.handler';
import { requireUsableTransfer, TransferLinksExhausted } from '../domain/project-transfer';
import { ProjectTransfersRepository } from '../infrastructure/project-transfers.repository';
import { ProjectsRepository } from '../infrastructure/projects.repository';
import { AcceptProjectTransferDto, TransferProjectDto } from './projects.dto';

/** Sentry's project transfer: an admin mails a link to an owner of another organization, who accepts it there. */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class ProjectTransferController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
    private readonly transfers: ProjectTransfersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Mails the transfer link; the answer carries it too, so it can be passed on where no mail server is set up (as invitations do). */
  @Post('projects/:organization_id_or_slug/:project_id_or_slug/transfer')
  @HttpCode(201)
  @RequireScopes('project:admin')
  async transfer(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') idOrSlug: string,
    @Body() body: TransferProjectDto,
  ) {
    const project = await this.projects.findSummary(this.database, organization.id, idOrSlug);
    if (!project) throw new NotFoundException();
    const requested = await this.commands
      .execute<RequestProjectTransferCommand, RequestedTransfer>(
        new RequestProjectTransferCommand(organization.id, String(project.id), body.email.trim(), principal.userId),
      )
      .catch((error: unknown) => {
        if (error instanceof TransferLinksExhausted) throw new HttpException({ detail: error.message }, HttpStatus.TOO_MANY_REQUESTS);
        throw error;
      });
    return { detail: `A transfer link was sent to ${body.email.trim()}.`, transfer_link: requested.acceptUrl, expires: requested.expiresAt };
  }

  /** The project the link offers and the organizations the signed-in user owns, to choose from. */
  @Get('accept-transfer')
  @RequireScopes('project:read')
  async details(@CurrentPrincipal() principal: Principal, @Query('data') data?: string) {
    const userId = signedInUser(principal);
    if (!data || data.length > 200) throw new BadRequestException({ detail: 'The transfer link is incomplete.' });
    const transfer = requireUsableTransfer(await this.transfers.findByHash(this.database, sha256Hex(data), false), userId, this.clock.now());
    const project = await this.projects.findSummary(this.database, transfer.fromOrganizationId, transfer.projectId);
    if (!project) throw new BadRequestException({ detail: 'The project of this transfer no longer exists.' });
    const from = await this.transfers.organizationName(this.database, transfer.fromOrganizationId);
    const organizations = await this.transfers.ownedOrganizations(this.database, userId);
    return {
      project: { id: String(project.id), slug: project.slug, name: project.name, organization: { name: from } },
      organizations: organizations.filter((organization) => organization.id !== transfer.fromOrganizationId),
      expires: transfer.expiresAt.toISOString(),
    };
  }

  @Post('accept-transfer')
  @HttpCode(200)
  @RequireScopes('project:admin')
  async accept(@CurrentPrincipal() principal: Principal, @Body() body: AcceptProjectTransferDto) {
    const accepted = await this.commands.execute<AcceptProjectTransferCommand, AcceptedTransfer>(
      new AcceptProjectTransferCommand(body.data, signedInUser(principal), body.organization),
    );
    return { organization: { slug: accepted.organizationSlug }, project: { slug: accepted.projectSlug } };
  }
}

/** Transfers are accepted by a person (the owner the link went to), never by an organization's token. */
function signedInUser(principal: Principal): string {
  if (principal.kind !== 'user' || !principal.userId) throw new ForbiddenException({ detail: 'Sign in as the owner the transfer link was sent to.' });
  return principal.userId;
}
