import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  HttpException,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Inject } from '@nestjs/common';
import {
  APP_CONFIG,
  type AppConfig,
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
import { acceptInviteUrl } from '../contracts/member-invites';
import { RemoveMemberCommand } from '../application/commands/remove-member/remove-member.command';
import { UpdateMemberProfileCommand } from '../application/commands/update-member-profile/update-member-profile.command';
import { type MemberRole, mayManageRole } from '../domain/roles';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The invitation with its link, for those who may invite (no mail server needed to pass it on; Sentry's `invite_link`). */
  private withLink(invite: InviteRow) {
    return { ...serializeInvite(invite, this.clock.now()), invite_link: acceptInviteUrl(this.config.publicUrl, invite.id, invite.token) };
  }

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
    return this.withLink(invite);
  }

  @Get('organizations/:organization_id_or_slug/members/:member_id')
  @RequireScopes('member:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string) {
    const member = await this.repository.findMember(this.database, organization.id, memberId);
    if (member) return serializeMember(member);
    const invite = await this.invites.find(this.database, memberId, organization.id);
    if (!invite) throw new NotFoundException();
    return organization.scopes.has('member:admin') ? this.withLink(invite) : serializeInvite(invite, this.clock.now());
  }

  /**
   * `{"reinvite": true}` sends a pending member's invitation again, with a new link; `{"orgRole"}`
   * changes a member's role (member:admin, and only between roles within the caller's own).
   */
  @Put('organizations/:organization_id_or_slug/members/:member_id')
  @RequireScopes('member:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('member_id') memberId: string,
    @Body() body: UpdatePendingMemberDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const role = body.orgRole ?? body.role;
    if (body.reinvite !== true && role !== undefined) return this.changeRole(organization, memberId, role);
    if (body.reinvite !== true) throw new BadRequestException({ detail: 'Send {"reinvite": true} for a pending member or {"orgRole": …} for a member.' });
    const invite = await withinMailBudget(reply, () =>
      this.commands.execute<ReinviteMemberCommand, InviteRow>(new ReinviteMemberCommand(organization.id, memberId, principal.userId ?? null)),
    );
    return this.withLink(invite);
  }

  private async changeRole(organization: OrganizationAccess, memberId: string, role: string) {
    if (!organization.scopes.has('member:admin')) throw new ForbiddenException({ detail: "You do not have permission to change members' roles." });
    await this.commands.execute(
      new UpdateMemberProfileCommand(organization.id, memberId, (current) => {
        if (!mayManageRole(organization.scopes, current.role))
          throw DomainError.forbidden(`You do not have permission to change the role of a member with the ${current.role} role.`);
        if (!mayManageRole(organization.scopes, role)) throw DomainError.forbidden(`You do not have permission to give a member the ${role} role.`);
        return { ...current, role: role as MemberRole };
      }),
    );
    const member = await this.repository.findMember(this.database, organization.id, memberId);
    if (!member) throw new NotFoundException();
    return serializeMember(member);
  }

  /** Removes a member (never the last owner, nor one whose role is beyond the caller's) or revokes a pending member's invitation. */
  @Delete('organizations/:organization_id_or_slug/members/:member_id')
  @HttpCode(204)
  @RequireScopes('member:write')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string): Promise<void> {
    if (await this.repository.findMember(this.database, organization.id, memberId)) {
      await this.commands.execute(new RemoveMemberCommand(organization.id, memberId, undefined, undefined, organization.scopes));
      return;
    }
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
