import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberAdded, memberStream } from '../domain/identity.events';
import type { MemberRole } from '../domain/roles';
import { decideSsoLink, issueSsoSecret, PENDING_LINK_TTL_MS, type SsoIdentity } from '../domain/saml-sign-in';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SsoRepository } from '../infrastructure/sso.repository';
import { type SessionClient, SessionStarter, type StartedSession } from './session-starter';

/** The client a session starts for, as the password sign-in has it. */
export type SsoClient = SessionClient;

export type SsoSignInOutcome =
  | { readonly kind: 'session'; readonly session: StartedSession; readonly organizationSlug: string }
  /** The e-mail belongs to an account that must prove it is its owner's before it is linked. */
  | { readonly kind: 'link'; readonly linkToken: string; readonly organizationSlug: string };

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

  /**
   * Signs in the user an identity provider (SAML or OpenID Connect) vouched for, as the member
   * `decideSsoLink` names: linked before, provisioned by SCIM, joining just in time, or an existing
   * account that gets a pending link to prove with its password.
   */
  async signIn(
    tx: Transaction,
    provider: { readonly organization_id: string; readonly slug: string; readonly default_role: MemberRole },
    user: SsoIdentity,
    options: { now: Date; ttlMs: number; client: SessionClient },
  ): Promise<SsoSignInOutcome> {
    const organizationId = provider.organization_id;
    const decision = decideSsoLink({
      linkedUserId: await this.sso.linkedUser(tx, organizationId, user.idpUserId),
      provisionedMemberUserId: await this.sso.provisionedMember(tx, organizationId, user.idpUserId, user.email),
      existingUserId: await this.sso.userByEmail(tx, user.email),
    });
    if (decision.kind === 'prove-ownership') {
      const link = issueSsoSecret(options.now, PENDING_LINK_TTL_MS);
      await this.sso.insertPendingLink(tx, { hash: link.hash, organizationId, idpUserId: user.idpUserId, userId: decision.userId, expiresAt: link.expiresAt });
      return { kind: 'link', linkToken: link.value, organizationSlug: provider.slug };
    }
    const userId = decision.kind === 'join' ? await this.sso.createUser(tx, user.email, user.name, organizationId) : decision.userId;
    if (decision.kind !== 'linked') await this.sso.link(tx, organizationId, user.idpUserId, userId);
    await this.ensureMember(tx, organizationId, userId, provider.default_role);
    const session = await this.start(tx, userId, organizationId, options.now, options.ttlMs, options.client);
    return { kind: 'session', session, organizationSlug: provider.slug };
  }

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
