import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberAdded, memberStream, SESSION_STREAM_TYPE, sessionStarted, sessionStream } from '../domain/identity.events';
import type { MemberRole } from '../domain/roles';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { issueSession } from '../domain/user-session';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SsoRepository } from '../infrastructure/sso.repository';
import type { StartedSession } from './commands/sign-in/sign-in.handler';

export interface SsoClient {
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
}

/** Starts the session of a user an organization's identity provider vouched for, marked as having passed its SSO. */
@Injectable()
export class SsoSessions {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly sso: SsoRepository,
    private readonly identity: IdentityRepository,
    private readonly events: EventRecorder,
  ) {}

  /** A deactivated member stays out; a user who is no member joins with the provider's default role. */
  async ensureMember(tx: Transaction, organizationId: string, userId: string, role: MemberRole): Promise<void> {
    const member = await this.sso.member(tx, organizationId, userId);
    if (member && !member.is_active) throw DomainError.forbidden('Your membership of this organization is deactivated.');
    if (member) return;
    const memberId = await this.identity.insertMember(tx, { organizationId, userId, role });
    await this.events.record(tx, memberStream(memberId), MEMBER_STREAM_TYPE, [memberAdded({ organizationId, memberId, userId, role })]);
  }

  async start(tx: Transaction, userId: string, organizationId: string, now: Date, ttlMs: number, client: SsoClient): Promise<StartedSession> {
    const user = await this.sessions.findUser(tx, userId);
    const issued = issueSession();
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.sessions.pruneExpired(tx, now);
    const session = await this.sessions.insertSession(tx, {
      userId,
      tokenHash: issued.tokenHash,
      csrfToken: issued.csrfToken,
      expiresAt,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ipAddress: client.ipAddress,
      ssoOrganizationId: organizationId,
    });
    await this.events.record(tx, sessionStream(session.id), SESSION_STREAM_TYPE, [
      sessionStarted({ sessionId: session.id, userId, expiresAt: expiresAt.toISOString() }),
    ]);
    return {
      sessionId: session.id,
      cookieValue: issued.cookieValue,
      csrfToken: issued.csrfToken,
      expiresAt,
      user: { id: user.id, email: user.email, name: user.name, isSuperuser: user.is_superuser },
    };
  }
}
