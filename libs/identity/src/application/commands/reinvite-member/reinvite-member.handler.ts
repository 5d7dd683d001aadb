import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberInvited, memberStream } from '../../../domain/identity.events';
import { INVITE_TTL_MS, newInviteToken } from '../../../domain/member-invite';
import { InviteMailBudget } from '../../../infrastructure/invite-mail-budget.repository';
import { type InviteRow, InvitesRepository } from '../../../infrastructure/invites.repository';
import { ReinviteMemberCommand } from './reinvite-member.command';

/** Past the organization's invitation mail budget, nothing changes (InviteMailRefused): the old link keeps working. */
@CommandHandler(ReinviteMemberCommand)
export class ReinviteMemberHandler implements ICommandHandler<ReinviteMemberCommand, InviteRow> {
  constructor(
    private readonly database: Database,
    private readonly invites: InvitesRepository,
    private readonly mailBudget: InviteMailBudget,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, memberId, inviterUserId }: ReinviteMemberCommand): Promise<InviteRow> {
    return this.database.transaction(async (tx) => {
      const invite = await this.invites.find(tx, memberId, organizationId, true);
      if (!invite) throw DomainError.notFound();
      await this.mailBudget.spend(tx, organizationId, invite.email, false);
      const expiresAt = new Date(this.clock.now().getTime() + INVITE_TTL_MS);
      await this.invites.renew(tx, invite.id, newInviteToken(), expiresAt);
      await this.events.record(tx, memberStream(invite.id), MEMBER_STREAM_TYPE, [
        memberInvited({
          organizationId,
          memberId: invite.id,
          email: invite.email,
          role: invite.role,
          expiresAt: expiresAt.toISOString(),
          inviterUserId,
          reinvite: true,
        }),
      ]);
      return (await this.invites.find(tx, invite.id, organizationId)) as InviteRow;
    });
  }
}
