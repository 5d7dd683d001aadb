import { Inject, Injectable } from '@nestjs/common';
import { acceptInviteUrl, IdentityEventTypes, MemberInvites } from '@faultline/identity';
import type { RecordedEvent } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type Transaction } from '@faultline/platform';
import { linkMail } from '../domain/issue-messages';
import { MailOutbox } from './mail-outbox';

/** Mails each invitation identity records (`identity.MemberInvited`, again on a reinvite), in the same transaction. */
@Injectable()
export class InvitationMailer {
  constructor(
    private readonly mail: MailOutbox,
    private readonly invites: MemberInvites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    for (const event of events) {
      if (event.type !== IdentityEventTypes.MemberInvited) continue;
      const invitation = await this.invites.invitation(tx, String((event.data as { memberId: string }).memberId));
      if (!invitation) continue;
      const by = invitation.inviterName ? `${invitation.inviterName} invited you` : 'You are invited';
      const message = linkMail(
        invitation.email,
        `Join ${invitation.organizationName} on Faultline`,
        [`${by} to join ${invitation.organizationName} on Faultline.`, `The link works until ${invitation.expiresAt}.`],
        { label: 'Join the organization', url: acceptInviteUrl(this.config.publicUrl, invitation.memberId, invitation.token) },
      );
      await this.mail.queue(tx, [
        { organizationId: invitation.organizationId, to: invitation.email, userId: null, reason: 'invite', cause: event.eventId, issueId: null, message },
      ]);
    }
  };
}
