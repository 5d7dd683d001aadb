import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { inviteRevoked, MEMBER_STREAM_TYPE, memberStream } from '../../../domain/identity.events';
import { InvitesRepository } from '../../../infrastructure/invites.repository';
import { RevokeInviteCommand } from './revoke-invite.command';

@CommandHandler(RevokeInviteCommand)
export class RevokeInviteHandler implements ICommandHandler<RevokeInviteCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly invites: InvitesRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, memberId }: RevokeInviteCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const invite = await this.invites.find(tx, memberId, organizationId, true);
      if (!invite) throw DomainError.notFound();
      await this.invites.delete(tx, invite.id);
      await this.events.record(tx, memberStream(invite.id), MEMBER_STREAM_TYPE, [inviteRevoked({ organizationId, memberId: invite.id })]);
    });
  }
}
