import { DomainError } from '@faultline/kernel';
import { isMemberRole, MEMBER_ROLES, type MemberRole } from './roles';

export interface MemberName {
  readonly formatted?: string;
  readonly familyName?: string;
  readonly givenName?: string;
  readonly middleName?: string;
  readonly honorificPrefix?: string;
  readonly honorificSuffix?: string;
}

export interface MemberEmail {
  readonly value: string;
  readonly type?: string;
  readonly primary?: boolean;
}

/**
 * What an identity provider keeps about a member: the user's e-mail as the user name, names,
 * e-mails, its own id for the member, whether the member may use the organization, and the role.
 */
export interface MemberProfile {
  readonly userName: string;
  readonly name: MemberName | null;
  readonly displayName: string | null;
  readonly emails: readonly MemberEmail[];
  readonly externalId: string | null;
  readonly active: boolean;
  readonly role: MemberRole;
}

/** A member as stored, with the version that changes with every update (the SCIM ETag). */
export interface ProvisionedMember extends MemberProfile {
  readonly memberId: string;
  readonly userId: string;
  readonly version: number;
  readonly created: Date;
  readonly lastModified: Date;
}

const NAME_PARTS = ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_TEXT = 255;

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw DomainError.invalid(`${field} must be a string`);
  if (value.length > MAX_TEXT) throw DomainError.invalid(`${field} must be at most ${MAX_TEXT} characters`);
  return value;
}

function optionalText(value: unknown, field: string): string | null {
  return value === undefined || value === null || value === '' ? null : text(value, field);
}

/** Checks a profile a provider sent and answers it in canonical form; anything else is DomainError 'invalid'. */
export function validateProfile(profile: MemberProfile): MemberProfile {
  const userName = text(profile.userName, 'userName').trim();
  if (!EMAIL.test(userName)) throw DomainError.invalid('userName must be an e-mail address');
  if (!isMemberRole(profile.role)) throw DomainError.invalid(`role must be one of ${MEMBER_ROLES.join(', ')}`);
  if (typeof profile.active !== 'boolean') throw DomainError.invalid('active must be a boolean');
  let name: MemberName | null = null;
  if (profile.name !== null && profile.name !== undefined) {
    if (typeof profile.name !== 'object' || Array.isArray(profile.name)) throw DomainError.invalid('name must be an object');
    const parts: Record<string, string> = {};
    for (const part of NAME_PARTS) {
      const value = optionalText(profile.name[part], `name.${part}`);
      if (value !== null) parts[part] = value;
    }
    name = Object.keys(parts).length ? parts : null;
  }
  if (!Array.isArray(profile.emails)) throw DomainError.invalid('emails must be a list');
  if (profile.emails.length > 20) throw DomainError.invalid('emails: at most 20 addresses');
  const emails = profile.emails.map((email, index): MemberEmail => {
    if (email === null || typeof email !== 'object') throw DomainError.invalid(`emails[${index}] must be an object`);
    const value = text(email.value, `emails[${index}].value`).trim();
    if (!EMAIL.test(value)) throw DomainError.invalid(`emails[${index}].value must be an e-mail address`);
    const type = optionalText(email.type, `emails[${index}].type`);
    if (email.primary !== undefined && email.primary !== null && typeof email.primary !== 'boolean') {
      throw DomainError.invalid(`emails[${index}].primary must be a boolean`);
    }
    return { value, ...(type ? { type: type.toLowerCase() } : {}), ...(email.primary ? { primary: true } : {}) };
  });
  return {
    userName,
    name,
    displayName: optionalText(profile.displayName, 'displayName'),
    emails,
    externalId: optionalText(profile.externalId, 'externalId'),
    active: profile.active,
    role: profile.role,
  };
}

/** The user's display name derived from a profile, for a user account created by provisioning. */
export function userNameFromProfile(profile: MemberProfile): string {
  const given = [profile.name?.givenName, profile.name?.familyName].filter(Boolean).join(' ');
  return profile.displayName ?? profile.name?.formatted ?? (given || '');
}

/** JSON with object keys sorted: stored jsonb comes back with its keys in another order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The attributes that differ between two profiles, with their new values. */
export function changedAttributes(before: MemberProfile, after: MemberProfile): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const key of ['userName', 'name', 'displayName', 'emails', 'externalId', 'active', 'role'] as const) {
    if (stableJson(before[key]) !== stableJson(after[key])) changes[key] = after[key];
  }
  return changes;
}
