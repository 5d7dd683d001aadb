import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { inviteAccepted, MEMBER_STREAM_TYPE, memberStream } from '../../../domain/identity.events';
import { inviteTokenMatches } from '../../../domain/member-invite';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../../../domain/password';
import { InvitesRepository } from '../../../infrastructure/invites.repository';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { SessionStarter, type StartedSession } from '../../session-starter';
import { AcceptInviteCommand } from './accept-invite.command';

export interface AcceptedInvite {
  readonly organizationSlug: string;
  readonly organizationName: string;
  readonly email: string;
  /** Started for a new account only. */
  readonly session?: StartedSession;
}

const MAX_NAME = 200;

/** Answers the organization joined and the address to sign in with. */
@CommandHandler(AcceptInviteCommand)
export class AcceptInviteHandler implements ICommandHandler<AcceptInviteCommand, AcceptedInvite> {
  constructor(
    private readonly database: Database,
    private readonly invites: InvitesRepository,
    private readonly sessions: SessionsRepository,
    private readonly events: EventRecorder,
    private readonly sessionStarter: SessionStarter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ memberId, token, password, name: rawName, session }: AcceptInviteCommand): Promise<AcceptedInvite> {
    const name = (rawName ?? '').trim();
    if (name.length > MAX_NAME) throw DomainError.invalid(`name: Ensure this field has no more than ${MAX_NAME} characters.`);
    return this.database.transaction(async (tx) => {
      const invite = await this.invites.find(tx, memberId, undefined, true);
      // A wrong, used or revoked link all look alike.
      if (!invite || !inviteTokenMatches(invite.token, token)) throw DomainError.notFound('This invitation link is not valid.');
      if (invite.expires_at.getTime() <= this.clock.now().getTime()) throw DomainError.invalid('This invitation has expired: ask for a new one.');
      const existing = await this.sessions.findUserByEmail(tx, invite.email);
      let userId: string;
      let newUser: { id: string; email: string; name: string; is_superuser: boolean } | undefined;
      if (existing) {
        if (!(await verifyPassword(password, existing.password_hash))) throw DomainError.forbidden("The password is not this account's.");
        userId = String(existing.id);
      } else {
        assertAcceptablePassword(password);
        userId = await this.invites.createUser(tx, invite.email, name, await hashPassword(password));
        newUser = { id: userId, email: invite.email, name, is_superuser: false };
      }
      if (await this.invites.isMember(tx, invite.organization_id, invite.email)) throw DomainError.conflict(`${invite.email} is already a member`);
      await this.invites.join(tx, invite, userId);
      await this.invites.delete(tx, invite.id);
      await this.events.record(tx, memberStream(invite.id), MEMBER_STREAM_TYPE, [
        inviteAccepted({ organizationId: invite.organization_id, memberId: invite.id, userId, newUser: !existing }),
      ]);
      const started = newUser ? await this.sessionStarter.start(tx, newUser, { ...session, now: this.clock.now() }) : undefined;
      return { organizationSlug: invite.organization_slug, organizationName: invite.organization_name, email: invite.email, session: started };
    });
  }
}
