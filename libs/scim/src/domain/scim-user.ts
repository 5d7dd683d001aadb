import type { MemberProfile } from '@faultline/identity';
import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { ScimError } from './scim-error';
import { MAX_PATCH_OPERATIONS, PATCH_OP_SCHEMA, SCIM_ROLES, toBoolean, withoutCoreSchema } from './scim-schemas';

type Json = Record<string, unknown>;

/** The attributes of a SCIM User Faultline stores, by lower-cased name. */
const USER_ATTRIBUTES: Record<string, string> = {
  username: 'userName',
  name: 'name',
  displayname: 'displayName',
  emails: 'emails',
  externalid: 'externalId',
  active: 'active',
  sentryorgrole: 'sentryOrgRole',
};
const NAME_PARTS: Record<string, string> = {
  formatted: 'formatted',
  familyname: 'familyName',
  givenname: 'givenName',
  middlename: 'middleName',
  honorificprefix: 'honorificPrefix',
  honorificsuffix: 'honorificSuffix',
};
/** Read-only attributes providers echo back in request bodies; they are ignored, as Sentry does. */
const READ_ONLY = new Set(['id', 'schemas', 'meta', 'groups']);

/**
 * The spelling Faultline stores for an attribute path (attribute names are case-insensitive):
 * `Name.GivenName` is `name.givenName`; a value filter in brackets is kept as sent.
 */
function canonicalPath(path: string): string {
  const bare = withoutCoreSchema(path.trim());
  const bracket = bare.indexOf('[');
  const head = bracket < 0 ? bare : bare.slice(0, bracket);
  const tail = bracket < 0 ? '' : bare.slice(bracket);
  const [attribute, ...subAttributes] = head.split('.');
  const canonical = USER_ATTRIBUTES[attribute.toLowerCase()];
  if (!canonical) return bare;
  const sub = subAttributes.map((part) => (canonical === 'name' ? (NAME_PARTS[part.toLowerCase()] ?? part) : part.toLowerCase() === 'value' ? 'value' : part));
  if (tail) {
    // `emails[type eq "work"].value`: the sub-attribute after the filter.
    const close = tail.lastIndexOf(']');
    const after = tail.slice(close + 1);
    const subAfter = after.startsWith('.') ? `.${after.slice(1).toLowerCase() === 'value' ? 'value' : after.slice(1)}` : after;
    return `${canonical}${tail.slice(0, close + 1)}${subAfter}`;
  }
  return [canonical, ...sub].join('.');
}

/** A profile as the JSON document scim-patch works on. */
function toDocument(profile: MemberProfile): Json {
  const document: Json = {
    schemas: [],
    userName: profile.userName,
    emails: profile.emails.map((email) => ({ ...email })),
    active: profile.active,
    sentryOrgRole: profile.role,
  };
  if (profile.name) document.name = { ...profile.name };
  if (profile.displayName !== null) document.displayName = profile.displayName;
  if (profile.externalId !== null) document.externalId = profile.externalId;
  return document;
}

/**
 * A profile from a SCIM User document (a POST or PUT body, or a patched document). Unknown and
 * read-only attributes are ignored; `active` may come as the strings "True" and "False".
 */
export function profileFromDocument(
  document: Json,
  defaults: { active: boolean; role: MemberProfile['role'] },
  currentRole?: MemberProfile['role'],
): MemberProfile {
  const get = (name: string): unknown => {
    const key = Object.keys(document).find((candidate) => USER_ATTRIBUTES[withoutCoreSchema(candidate).toLowerCase()] === name);
    return key === undefined ? undefined : document[key];
  };
  const userName = get('userName');
  if (typeof userName !== 'string' || userName.trim() === '') throw ScimError.badRequest('invalidValue', 'userName is required.');
  const active = get('active');
  const emails = get('emails');
  const name = get('name');
  return {
    userName: userName.trim(),
    name: name === undefined || name === null ? null : canonicalName(name),
    displayName: optionalString(get('displayName'), 'displayName'),
    emails: emails === undefined || emails === null ? [] : canonicalEmails(emails),
    externalId: optionalString(get('externalId'), 'externalId'),
    active: active === undefined || active === null ? defaults.active : toBoolean(active, 'active'),
    role: scimRole(get('sentryOrgRole'), defaults.role, currentRole),
  };
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw ScimError.badRequest('invalidValue', `${field} must be a string.`);
  return value;
}

function canonicalName(value: unknown): MemberProfile['name'] {
  if (typeof value !== 'object' || Array.isArray(value)) throw ScimError.badRequest('invalidValue', 'name must be an object.');
  const parts: Record<string, string> = {};
  for (const [key, part] of Object.entries(value as Json)) {
    const canonical = NAME_PARTS[key.toLowerCase()];
    if (!canonical || part === null || part === undefined || part === '') continue;
    if (typeof part !== 'string') throw ScimError.badRequest('invalidValue', `name.${canonical} must be a string.`);
    parts[canonical] = part;
  }
  return Object.keys(parts).length ? parts : null;
}

function canonicalEmails(value: unknown): MemberProfile['emails'] {
  // A single e-mail object where a list belongs is read as a list of one.
  const list = Array.isArray(value) ? value : [value];
  return list.map((email, index) => {
    if (typeof email !== 'object' || email === null) throw ScimError.badRequest('invalidValue', `emails[${index}] must be an object.`);
    const entry = Object.fromEntries(Object.entries(email as Json).map(([key, part]) => [key.toLowerCase(), part]));
    if (typeof entry.value !== 'string') throw ScimError.badRequest('invalidValue', `emails[${index}].value must be a string.`);
    return {
      value: entry.value,
      ...(typeof entry.type === 'string' && entry.type ? { type: entry.type.toLowerCase() } : {}),
      ...(entry.primary !== undefined && entry.primary !== null && toBoolean(entry.primary, `emails[${index}].primary`) ? { primary: true } : {}),
    };
  });
}

/** The role a SCIM request asks for; owner can be kept but never granted through SCIM. */
function scimRole(value: unknown, fallback: MemberProfile['role'], currentRole?: MemberProfile['role']): MemberProfile['role'] {
  if (value === undefined || value === null || value === '') return fallback;
  const role = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (role === 'owner' && currentRole === 'owner') return role;
  if (!(SCIM_ROLES as readonly string[]).includes(role)) {
    throw ScimError.badRequest('invalidValue', `sentryOrgRole must be one of ${SCIM_ROLES.join(', ')}.`);
  }
  return role as MemberProfile['role'];
}

/** The Operations of a PATCH body, checked: at most MAX_PATCH_OPERATIONS, each with an op. */
export function patchOperations(body: unknown): Json[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ScimError.badRequest('invalidSyntax', 'The body must be a PatchOp object.');
  const { schemas, Operations: operations } = body as Json;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(PATCH_OP_SCHEMA))) {
    throw ScimError.badRequest('invalidSyntax', `schemas must contain ${PATCH_OP_SCHEMA}.`);
  }
  if (!Array.isArray(operations) || operations.length === 0) throw ScimError.badRequest('invalidSyntax', 'Operations must be a non-empty list.');
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw ScimError.badRequest('tooMany', `A PATCH request may hold at most ${MAX_PATCH_OPERATIONS} operations.`);
  }
  return operations.map((operation, index) => {
    if (typeof operation !== 'object' || operation === null) throw ScimError.badRequest('invalidSyntax', `Operations[${index}] must be an object.`);
    const entries = Object.fromEntries(Object.entries(operation as Json).map(([key, value]) => [key.toLowerCase(), value]));
    const op = typeof entries.op === 'string' ? entries.op.toLowerCase() : '';
    if (!['add', 'remove', 'replace'].includes(op)) throw ScimError.badRequest('invalidSyntax', `Operations[${index}].op must be add, remove or replace.`);
    if (entries.path !== undefined && (typeof entries.path !== 'string' || entries.path.trim() === '')) {
      throw ScimError.badRequest('invalidPath', `Operations[${index}].path must be a non-empty string.`);
    }
    if (op !== 'remove' && !('value' in entries)) throw ScimError.badRequest('invalidValue', `Operations[${index}] needs a value.`);
    return { op, ...(entries.path !== undefined ? { path: (entries.path as string).trim() } : {}), ...('value' in entries ? { value: entries.value } : {}) };
  });
}

/**
 * Applies PATCH operations to a member's profile with scim-patch, covering what the library does
 * not: `op` in any case (Entra ID's "Replace"), attribute names in any case, read-only attributes
 * echoed in path-less values (Okta sends the id), dotted keys in path-less values
 * (`"name.givenName"`), string booleans, and a remove without path (400 noTarget).
 */
export function patchProfile(current: MemberProfile, operations: readonly Json[]): MemberProfile {
  const normalised: ScimPatchOperation[] = [];
  for (const operation of operations) {
    const op = operation.op as 'add' | 'remove' | 'replace';
    const path = typeof operation.path === 'string' ? canonicalPath(operation.path) : undefined;
    if (path !== undefined && READ_ONLY.has(path.toLowerCase())) continue;
    if (path === undefined) {
      if (op === 'remove') throw ScimError.badRequest('noTarget', 'A remove operation needs a path.');
      if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value)) {
        throw ScimError.badRequest('invalidValue', 'An operation without a path needs an object value.');
      }
      const value = Object.fromEntries(
        Object.entries(operation.value as Json)
          .map(([key, part]): [string, unknown] => [canonicalPath(key), part])
          .filter(([key]) => !READ_ONLY.has(key.toLowerCase())),
      );
      if (Object.keys(value).length) normalised.push({ op, value } as ScimPatchOperation);
      continue;
    }
    if (op === 'remove' && path === 'emails' && operation.value !== undefined && operation.value !== null) {
      // scim-patch removes only entries deep-equal to those sent; providers send just their `value`.
      for (const email of Array.isArray(operation.value) ? operation.value : [operation.value]) {
        const address = typeof email === 'object' && email !== null ? (email as Json).value : undefined;
        if (typeof address !== 'string') throw ScimError.badRequest('invalidValue', 'Removing e-mails takes a list of {"value": ...} objects.');
        normalised.push({ op: 'remove', path: `emails[value eq ${JSON.stringify(address)}]` });
      }
      continue;
    }
    normalised.push(
      (op === 'remove'
        ? { op, path, ...('value' in operation ? { value: operation.value } : {}) }
        : { op, path, value: operation.value }) as ScimPatchOperation,
    );
  }
  let document: Json;
  try {
    document = scimPatch(toDocument(current) as never, normalised, { mutateDocument: true, treatMissingAsAdd: true }) as unknown as Json;
  } catch (error) {
    if (error instanceof ScimError) throw error;
    const scimType = (error as { scimCode?: string }).scimCode;
    throw ScimError.badRequest(
      scimType === 'noTarget' || scimType === 'invalidPath' || scimType === 'invalidValue' ? scimType : 'invalidSyntax',
      error instanceof Error && error.message ? error.message : 'The PATCH operations cannot be applied.',
    );
  }
  return profileFromDocument(document, { active: current.active, role: current.role }, current.role);
}
