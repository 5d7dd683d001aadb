import { Body, Controller, Delete, Get, HttpCode, HttpException, NotFoundException, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Inject } from '@nestjs/common';
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
import type { FastifyReply } from 'fastify';
import { InviteMemberCommand } from '../application/commands/invite-member/invite-member.command';
import { ReinviteMemberCommand } from '../application/commands/reinvite-member/reinvite-member.command';
import { RevokeInviteCommand } from '../application/commands/revoke-invite/revoke-invite.command';
import { InviteMailRefused } from '../domain/invite-mail-budget';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { type InviteRow, InvitesRepository } from '../infrastructure/invites.repository';
import { InviteMemberDto, UpdatePendingMemberDto } from './identity.dto';
import { serializeInvite, serializeMember } from './identity.serializers';

@ApiTags('Members')
@ApiBearerAuth()
@Controller('api/0')
export class MembersController {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly invites: InvitesRepository,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/members')
  @RequireScopes('member:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination, @Query('query') query?: string) {
    // Sentry's `isInvited:true` search: the pending members (invitations) instead.
    if (/^\s*isInvited:true\s*$/.test(query ?? '')) {
      const invites = await this.invites.list(this.database, organization.id, page.offset, page.fetchLimit);
      return page.respond(invites).map((invite) => serializeInvite(invite, this.clock.now()));
    }
    const rows = await this.repository.listMembers(this.database, organization.id, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeMember);
  }

  /** Invites someone by e-mail (Sentry's body: `email`, `orgRole`, `teams`): a pending member, mailed a link to join. */
  @Post('organizations/:organization_id_or_slug/members')
  @HttpCode(201)
  @RequireScopes('member:write')
  async invite(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Body() body: InviteMemberDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const invite = await withinMailBudget(reply, () =>
      this.commands.execute<InviteMemberCommand, InviteRow>(
        new InviteMemberCommand(organization.id, body.email, body.orgRole ?? body.role, body.teams, principal.userId ?? null, organization.scopes),
      ),
    );
    return serializeInvite(invite, this.clock.now());
  }

  @Get('organizations/:organization_id_or_slug/members/:member_id')
  @RequireScopes('member:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string) {
    const member = await this.repository.findMember(this.database, organization.id, memberId);
    if (member) return serializeMember(member);
    const invite = await this.invites.find(this.database, memberId, organization.id);
    if (!invite) throw new NotFoundException();
    return serializeInvite(invite, this.clock.now());
  }

  /** `{"reinvite": true}` sends a pending member's invitation again, with a new link. */
  @Put('organizations/:organization_id_or_slug/members/:member_id')
  @RequireScopes('member:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('member_id') memberId: string,
    @Body() body: UpdatePendingMemberDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (body.reinvite !== true) throw new NotFoundException('Only a pending member\'s invitation can be sent again here ({"reinvite": true}).');
    const invite = await withinMailBudget(reply, () =>
      this.commands.execute<ReinviteMemberCommand, InviteRow>(new ReinviteMemberCommand(organization.id, memberId, principal.userId ?? null)),
    );
    return serializeInvite(invite, this.clock.now());
  }

  /** Revokes a pending member's invitation. */
  @Delete('organizations/:organization_id_or_slug/members/:member_id')
  @HttpCode(204)
  @RequireScopes('member:write')
  async revoke(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string): Promise<void> {
    await this.commands.execute(new RevokeInviteCommand(organization.id, memberId));
  }
}

/** An invitation mail past the organization's budget answers 429, with Retry-After when waiting helps. */
async function withinMailBudget<T>(reply: FastifyReply, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof InviteMailRefused)) throw error;
    if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
    throw new HttpException({ detail: error.detail }, 429);
  }
}
