import { domainEvent } from '@faultline/kernel';

/**
 * Identity changes are ordinary table state; each command also records these events so subscribers
 * and modules can follow them. Each entity has its own stream, so commands on different teams,
 * members or tokens of one organization never contend for one stream.
 */
export const IdentityEventTypes = {
  OrganizationCreated: 'identity.OrganizationCreated',
  OrganizationUpdated: 'identity.OrganizationUpdated',
  MemberAdded: 'identity.MemberAdded',
  TeamCreated: 'identity.TeamCreated',
  TeamMemberAdded: 'identity.TeamMemberAdded',
  MemberProvisioned: 'identity.MemberProvisioned',
  MemberUpdated: 'identity.MemberUpdated',
  MemberDeactivated: 'identity.MemberDeactivated',
  MemberReactivated: 'identity.MemberReactivated',
  MemberRemoved: 'identity.MemberRemoved',
  MemberInvited: 'identity.MemberInvited',
  InviteRevoked: 'identity.InviteRevoked',
  InviteAccepted: 'identity.InviteAccepted',
  TeamRenamed: 'identity.TeamRenamed',
  TeamMembersChanged: 'identity.TeamMembersChanged',
  TeamUpdated: 'identity.TeamUpdated',
  TeamDeleted: 'identity.TeamDeleted',
  ApiTokenCreated: 'identity.ApiTokenCreated',
  ApiTokenRevoked: 'identity.ApiTokenRevoked',
  UserPasswordChanged: 'identity.UserPasswordChanged',
  SessionStarted: 'identity.SessionStarted',
  SessionEnded: 'identity.SessionEnded',
} as const;

export const organizationStream = (organizationId: string): string => `organization-${organizationId}`;
export const ORGANIZATION_STREAM_TYPE = 'organization';

export const organizationCreated = (data: { organizationId: string; slug: string; name: string; plan: string }) =>
  domainEvent(IdentityEventTypes.OrganizationCreated, data);

export const organizationUpdated = (data: { organizationId: string; changes: Record<string, unknown> }) =>
  domainEvent(IdentityEventTypes.OrganizationUpdated, data);

export const memberAdded = (data: { organizationId: string; memberId: string; userId: string; role: string }) =>
  domainEvent(IdentityEventTypes.MemberAdded, data);

export const teamCreated = (data: { organizationId: string; teamId: string; slug: string; name: string }) => domainEvent(IdentityEventTypes.TeamCreated, data);

export const teamMemberAdded = (data: { organizationId: string; teamId: string; memberId: string }) => domainEvent(IdentityEventTypes.TeamMemberAdded, data);

/** A member an identity provider created (SCIM); `active: false` members exist but have no access. */
export const memberProvisioned = (data: {
  organizationId: string;
  memberId: string;
  userId: string;
  role: string;
  active: boolean;
  externalId: string | null;
}) => domainEvent(IdentityEventTypes.MemberProvisioned, data);

/** Attributes of a member changed; `changes` holds the new values of the changed attributes only. */
export const memberUpdated = (data: { organizationId: string; memberId: string; changes: Record<string, unknown> }) =>
  domainEvent(IdentityEventTypes.MemberUpdated, data);

export const memberDeactivated = (data: { organizationId: string; memberId: string; userId: string }) =>
  domainEvent(IdentityEventTypes.MemberDeactivated, data);

export const memberReactivated = (data: { organizationId: string; memberId: string; userId: string }) =>
  domainEvent(IdentityEventTypes.MemberReactivated, data);

/** The membership ended; the user account stays. */
export const memberRemoved = (data: { organizationId: string; memberId: string; userId: string }) => domainEvent(IdentityEventTypes.MemberRemoved, data);

export const teamRenamed = (data: { organizationId: string; teamId: string; name: string; slug: string; previousName: string; previousSlug: string }) =>
  domainEvent(IdentityEventTypes.TeamRenamed, data);

export const teamMembersChanged = (data: { organizationId: string; teamId: string; added: string[]; removed: string[] }) =>
  domainEvent(IdentityEventTypes.TeamMembersChanged, data);

export const teamUpdated = (data: { organizationId: string; teamId: string; changes: Record<string, unknown> }) =>
  domainEvent(IdentityEventTypes.TeamUpdated, data);

export const teamDeleted = (data: { organizationId: string; teamId: string; slug: string }) => domainEvent(IdentityEventTypes.TeamDeleted, data);

export const apiTokenCreated = (data: { tokenId: string; kind: string; userId?: string; organizationId?: string; scopes: string[] }) =>
  domainEvent(IdentityEventTypes.ApiTokenCreated, data);

export const apiTokenRevoked = (data: { tokenId: string; kind: string; userId?: string; organizationId?: string }) =>
  domainEvent(IdentityEventTypes.ApiTokenRevoked, data);

export const userPasswordChanged = (data: { userId: string }) => domainEvent(IdentityEventTypes.UserPasswordChanged, data);

/** A browser signed in; the event never carries the cookie or the CSRF token. */
export const sessionStarted = (data: { sessionId: string; userId: string; expiresAt: string }) => domainEvent(IdentityEventTypes.SessionStarted, data);

export const sessionEnded = (data: { sessionId: string; userId: string }) => domainEvent(IdentityEventTypes.SessionEnded, data);

/**
 * Someone was invited by e-mail (again, when `reinvite`): a pending member under `memberId`. The
 * event never carries the invite's token; the mail reads it through the MemberInvites contract.
 */
export const memberInvited = (data: {
  organizationId: string;
  memberId: string;
  email: string;
  role: string;
  expiresAt: string;
  inviterUserId: string | null;
  reinvite: boolean;
}) => domainEvent(IdentityEventTypes.MemberInvited, data);

export const inviteRevoked = (data: { organizationId: string; memberId: string }) => domainEvent(IdentityEventTypes.InviteRevoked, data);

/** The invitee joined: the pending member became a member of the same id. */
export const inviteAccepted = (data: { organizationId: string; memberId: string; userId: string; newUser: boolean }) =>
  domainEvent(IdentityEventTypes.InviteAccepted, data);

export const memberStream = (memberId: string): string => `member-${memberId}`;
export const MEMBER_STREAM_TYPE = 'member';
export const teamStream = (teamId: string): string => `team-${teamId}`;
export const TEAM_STREAM_TYPE = 'team';
export const apiTokenStream = (tokenId: string): string => `api-token-${tokenId}`;
export const API_TOKEN_STREAM_TYPE = 'api-token';
export const userStream = (userId: string): string => `user-${userId}`;
export const USER_STREAM_TYPE = 'user';
export const sessionStream = (sessionId: string): string => `session-${sessionId}`;
export const SESSION_STREAM_TYPE = 'session';
