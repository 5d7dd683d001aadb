import { ScimError } from './scim-error';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** At most this many operations in one PATCH, as Sentry allows. */
export const MAX_PATCH_OPERATIONS = 100;
/** The largest page a list answers; a larger `count` is clamped to it. */
export const MAX_PAGE_SIZE = 100;
/** A group answers at most this many members, as Sentry's does. */
export const MAX_GROUP_MEMBERS_LISTED = 10_000;

/** The organization roles SCIM may grant (Sentry's `sentryOrgRole`); owner is never granted through SCIM. */
export const SCIM_ROLES = ['billing', 'member', 'manager', 'admin'] as const;

/** An attribute path without the core schema's URN prefix (`urn:...:User:name.givenName` is `name.givenName`). */
export function withoutCoreSchema(path: string): string {
  const lower = path.toLowerCase();
  for (const schema of [USER_SCHEMA, GROUP_SCHEMA]) {
    if (lower.startsWith(`${schema.toLowerCase()}:`)) return path.slice(schema.length + 1);
  }
  return path;
}

/** SCIM booleans as providers send them: Entra ID sends "True" and "False" as strings. */
export function toBoolean(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw ScimError.badRequest('invalidValue', `${field} must be a boolean`);
}
