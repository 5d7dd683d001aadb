import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberAdded, memberStream } from '../domain/identity.events';
import type { MemberRole } from '../domain/roles';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SsoRepository } from '../infrastructure/sso.repository';
import { type SessionClient, SessionStarter, type StartedSession } from './session-starter';

/** The client a session starts for, as the password sign-in has it. */
export type SsoClient = SessionClient;

/** Starts the session of a user an organization's identity provider vouched for, marked as having passed its SSO. */
@Injectable()
export class SsoSessions {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly sso: SsoRepository,
    private readonly identity: IdentityRepository,
    private readonly events: EventRecorder,
    private readonly starter: SessionStarter,
  ) {}

  /** A deactivated member stays out; a user who is no member joins with the provider's default role. */
  async ensureMember(tx: Transaction, organizationId: string, userId: string, role: MemberRole): Promise<void> {
    const member = await this.sso.member(tx, organizationId, userId);
    if (member && !member.is_active) throw DomainError.forbidden('Your membership of this organization is deactivated.');
    if (member) return;
    const memberId = await this.identity.insertMember(tx, { organizationId, userId, role });
    await this.events.record(tx, memberStream(memberId), MEMBER_STREAM_TYPE, [memberAdded({ organizationId, memberId, userId, role })]);
  }

  async start(tx: Transaction, userId: string, organizationId: string, now: Date, ttlMs: number, client: SessionClient): Promise<StartedSession> {
    const user = await this.sessions.findUserById(tx, userId);
    if (!user) throw DomainError.notFound();
    return this.starter.start(tx, user, { ttlMs, client, now, ssoOrganizationId: organizationId });
  }
}
