import { ALL_SCOPES, expandScopes, type Scope } from '@faultline/kernel';

export const MEMBER_ROLES = ['billing', 'member', 'admin', 'manager', 'owner'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const PLANS = ['free', 'team', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Sentry's billing role manages payment details, which Faultline does not have: it may only read the organization. */
const BILLING: Scope[] = ['org:read'];
const MEMBER: Scope[] = [
  'org:read',
  'member:read',
  'team:read',
  'project:read',
  'project:releases',
  'event:read',
  'event:write',
  'event:admin',
  'alerts:read',
  'alerts:write',
];
const ADMIN: Scope[] = [...MEMBER, 'team:admin', 'project:admin', 'org:integrations'];
const MANAGER: Scope[] = [...ADMIN, 'member:admin', 'org:write'];

/** What each organization role may do, as in Sentry; a user token never exceeds its role. */
export const ROLE_SCOPES: Readonly<Record<MemberRole, ReadonlySet<Scope>>> = {
  billing: expandScopes(BILLING),
  member: expandScopes(MEMBER),
  admin: expandScopes(ADMIN),
  manager: expandScopes(MANAGER),
  owner: expandScopes(ALL_SCOPES),
};

export const ROLE_NAMES: Readonly<Record<MemberRole, string>> = {
  billing: 'Billing',
  member: 'Member',
  admin: 'Admin',
  manager: 'Manager',
  owner: 'Owner',
};

/**
 * Whether `role` ranks at least as high as `required` (Sentry's role priority; MEMBER_ROLES is in
 * that order). Who may download event attachments is decided this way (`attachmentsRole`).
 */
export function roleAtLeast(role: MemberRole, required: MemberRole): boolean {
  return MEMBER_ROLES.indexOf(role) >= MEMBER_ROLES.indexOf(required);
}

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/**
 * Whether someone with `actorScopes` may give a member `role`, or change or remove a member who
 * has it (Sentry: a role can be managed only by a member whose role carries all its scopes, so a
 * manager cannot invite, demote or remove an owner).
 */
export function mayManageRole(actorScopes: ReadonlySet<string>, role: string): boolean {
  return isMemberRole(role) && [...ROLE_SCOPES[role]].every((scope) => actorScopes.has(scope));
}
