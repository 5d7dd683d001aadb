import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberInvited, memberStream } from '../../../domain/identity.events';
import { INVITE_TTL_MS, newInviteToken, normaliseInviteEmail } from '../../../domain/member-invite';
import { MEMBER_ROLES, type MemberRole, mayManageRole } from '../../../domain/roles';
import { InviteMailBudget } from '../../../infrastructure/invite-mail-budget.repository';
import { type InviteRow, InvitesRepository } from '../../../infrastructure/invites.repository';
import { InviteMemberCommand } from './invite-member.command';

/**
 * Answers the pending member. The invitation (and so its mail) commits with it, or neither does;
 * past the organization's invitation mail budget, neither (InviteMailRefused).
 */
@CommandHandler(InviteMemberCommand)
export class InviteMemberHandler implements ICommandHandler<InviteMemberCommand, InviteRow> {
  constructor(
    private readonly database: Database,
    private readonly invites: InvitesRepository,
    private readonly mailBudget: InviteMailBudget,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, email: rawEmail, role: rawRole, teams: rawTeams, inviterUserId, inviterScopes }: InviteMemberCommand): Promise<InviteRow> {
    const email = normaliseInviteEmail(rawEmail);
    if (!email) throw DomainError.invalid('email: Enter a valid email address.');
    const role = rawRole ?? 'member';
    if (!MEMBER_ROLES.includes(role as MemberRole)) throw DomainError.invalid(`orgRole: must be one of ${MEMBER_ROLES.join(', ')}`);
    if (!mayManageRole(inviterScopes, role as string)) throw DomainError.forbidden(`You do not have permission to invite a member as ${role}.`);
    const teams = rawTeams ?? [];
    if (!Array.isArray(teams) || teams.length > 100 || !teams.every((team) => typeof team === 'string' || Number.isInteger(team))) {
      throw DomainError.invalid('teams: must be a list of team slugs');
    }
    const slugs = teams.map(String);
    return this.database.transaction(async (tx) => {
      const teamIds = await this.invites.teamIds(tx, organizationId, slugs);
      const unknown = slugs.filter((slug) => !teamIds.has(slug));
      if (unknown.length > 0) throw DomainError.invalid(`teams: Invalid team slugs: ${unknown.join(', ')}`);
      if (await this.invites.isMember(tx, organizationId, email)) throw DomainError.conflict(`The user ${email} is already a member`);
      await this.mailBudget.spend(tx, organizationId, email, true);
      const expiresAt = new Date(this.clock.now().getTime() + INVITE_TTL_MS);
      const id = await this.invites.insert(tx, {
        organizationId,
        email,
        role: role as string,
        teamIds: [...new Set(slugs.map((slug) => teamIds.get(slug) as string))],
        token: newInviteToken(),
        expiresAt,
        inviterUserId,
      });
      if (!id) throw DomainError.conflict(`The user ${email} has already been invited`);
      await this.events.record(tx, memberStream(id), MEMBER_STREAM_TYPE, [
        memberInvited({ organizationId, memberId: id, email, role: role as string, expiresAt: expiresAt.toISOString(), inviterUserId, reinvite: false }),
      ]);
      return (await this.invites.find(tx, id, organizationId)) as InviteRow;
    });
  }
}
