import type { OrganizationAccess } from '@faultline/platform';
import { ROLE_NAMES, type MemberRole } from '../domain/roles';
import type { MemberRow, OrganizationDataPrivacy, OrganizationRow, TeamRow, TokenRow } from '../infrastructure/identity.repository';
import type { InviteRow } from '../infrastructure/invites.repository';

const LETTER_AVATAR = { avatarType: 'letter_avatar', avatarUuid: null, avatarUrl: null };
const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

type OrganizationLike = Pick<OrganizationRow, 'id' | 'slug' | 'name' | 'plan' | 'features'> & { dateCreated: Date; require2FA: boolean };

export const fromRow = (row: OrganizationRow): OrganizationLike => ({ ...row, dateCreated: row.date_created, require2FA: row.require_2fa });
export const fromAccess = (access: OrganizationAccess): OrganizationLike => ({
  ...access,
  plan: access.plan as OrganizationRow['plan'],
  features: [...access.features],
});

/** Sentry's OrganizationSummary, plus Faultline's `plan`. */
export function serializeOrganization(org: OrganizationLike, publicUrl: string) {
  return {
    id: org.id,
    slug: org.slug,
    status: { id: 'active', name: 'active' },
    name: org.name,
    plan: org.plan,
    dateCreated: org.dateCreated.toISOString(),
    isEarlyAdopter: false,
    require2FA: org.require2FA,
    avatar: LETTER_AVATAR,
    links: { organizationUrl: `${publicUrl}/organizations/${org.slug}/`, regionUrl: publicUrl },
    hasAuthProvider: false,
    allowMemberInvite: true,
    allowMemberProjectCreation: true,
    allowSuperuserAccess: true,
    features: [...org.features].sort(),
  };
}

/** `settings`: the organization's own row, for the settings the access summary does not carry. */
export function serializeOrganizationDetail(
  org: OrganizationLike,
  publicUrl: string,
  access: { role?: string; scopes: Iterable<string> },
  settings: Pick<OrganizationRow, 'attachments_role'>,
  privacy: OrganizationDataPrivacy,
) {
  return {
    ...serializeOrganization(org, publicUrl),
    attachmentsRole: settings.attachments_role,
    dataScrubber: privacy.dataScrubber,
    dataScrubberDefaults: privacy.dataScrubberDefaults,
    sensitiveFields: privacy.sensitiveFields,
    safeFields: privacy.safeFields,
    scrubIPAddresses: privacy.scrubIPAddresses,
    storeCrashReports: privacy.storeCrashReports,
    relayPiiConfig: null,
    access: [...access.scopes].sort(),
    role: access.role ?? null,
    orgRole: access.role ?? null,
    isDefault: false,
    defaultRole: 'member',
    openMembership: true,
    experiments: {},
    onboardingTasks: [],
  };
}

export function serializeMember(member: MemberRow) {
  return {
    id: member.member_id,
    email: member.email,
    name: member.name,
    user: {
      id: member.user_id,
      name: member.name,
      username: member.email,
      email: member.email,
      avatarUrl: '',
      isActive: member.is_active,
      isSuspended: false,
      hasPasswordAuth: false,
      isManaged: false,
      dateJoined: member.date_joined.toISOString(),
      lastLogin: null,
      has2fa: false,
      lastActive: null,
      isSuperuser: member.is_superuser,
      isStaff: false,
      experiments: {},
      emails: [{ id: member.user_id, email: member.email, is_verified: true }],
    },
    role: member.role,
    orgRole: member.role,
    roleName: ROLE_NAMES[member.role as MemberRole],
    pending: false,
    expired: false,
    flags: {
      'idp:provisioned': member.idp_provisioned,
      'idp:role-restricted': false,
      'sso:linked': false,
      'sso:invalid': false,
      'member-limit:restricted': false,
      'partnership:restricted': false,
    },
    dateCreated: member.member_date_created.toISOString(),
    inviteStatus: 'approved',
    inviterName: null,
    teams: member.team_slugs,
  };
}

export function serializeTeam(team: TeamRow, access: Iterable<string>) {
  const teamScopes = [...access].filter((scope) => scope.startsWith('team:')).sort();
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    dateCreated: team.date_created.toISOString(),
    isMember: team.is_member,
    teamRole: team.is_member ? 'contributor' : null,
    flags: { 'idp:provisioned': false },
    access: teamScopes,
    hasAccess: true,
    isPending: false,
    memberCount: team.member_count,
    avatar: { avatarType: 'letter_avatar', avatarUuid: null },
  };
}

export function serializeUserToken(token: TokenRow, plaintext?: string) {
  return {
    id: token.id,
    name: token.name || null,
    scopes: token.scopes,
    application: null,
    expiresAt: iso(token.expires_at),
    dateCreated: token.date_created.toISOString(),
    dateLastUsed: iso(token.last_used_at),
    tokenLastCharacters: token.token_last_characters,
    ...(plaintext ? { token: plaintext } : {}),
  };
}

export function serializeOrgToken(token: TokenRow, plaintext?: string) {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    tokenLastCharacters: token.token_last_characters,
    dateCreated: token.date_created.toISOString(),
    dateLastUsed: iso(token.last_used_at),
    projectLastUsedId: null,
    ...(plaintext ? { token: plaintext } : {}),
  };
}

/** A pending member (an invitation) as Sentry's members API shows one. */
export function serializeInvite(invite: InviteRow, now: Date) {
  return {
    id: invite.id,
    email: invite.email,
    name: invite.email,
    user: null,
    orgRole: invite.role,
    role: invite.role,
    roleName: ROLE_NAMES[invite.role as MemberRole] ?? invite.role,
    pending: true,
    expired: invite.expires_at.getTime() <= now.getTime(),
    inviteStatus: 'approved',
    inviterName: invite.inviter_name,
    teams: invite.team_slugs,
    dateCreated: invite.date_created.toISOString(),
  };
}
