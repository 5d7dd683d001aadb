import type { TeamChange } from '@faultline/identity';
import { type Filter, parse } from 'scim2-parse-filter';
import { ScimError } from './scim-error';
import { withoutCoreSchema } from './scim-schemas';

type Json = Record<string, unknown>;

/** Member ids from a list of `{"value": id}` objects (Okta's and Entra ID's member lists). */
export function memberValues(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((member, index) => {
    const id = typeof member === 'object' && member !== null ? (member as Json).value : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') throw ScimError.badRequest('invalidValue', `members[${index}].value must be a member id.`);
    return String(id);
  });
}

/** The member ids named by a path filter such as `value eq "1" or value eq "2"`. */
function idsInMemberFilter(filter: Filter): string[] {
  if (filter.op === 'or') return filter.filters.flatMap(idsInMemberFilter);
  if (filter.op === 'eq' && filter.attrPath.toLowerCase() === 'value' && (typeof filter.compValue === 'string' || typeof filter.compValue === 'number')) {
    return [String(filter.compValue)];
  }
  throw ScimError.badRequest('invalidFilter', 'A members path filter names members by value, as in members[value eq "id"].');
}

function displayName(value: unknown): string {
  if (typeof value !== 'string') throw ScimError.badRequest('invalidValue', 'displayName must be a string.');
  return value;
}

function externalId(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw ScimError.badRequest('invalidValue', 'externalId must be a string.');
  return value;
}

/** The team changes of a group's PUT body: the name, the external id and the whole member list. */
export function groupReplacement(body: Json): TeamChange[] {
  const name = Object.entries(body).find(([key]) => withoutCoreSchema(key).toLowerCase() === 'displayname')?.[1];
  if (name === undefined) throw ScimError.badRequest('invalidValue', 'displayName is required.');
  const external = Object.entries(body).find(([key]) => withoutCoreSchema(key).toLowerCase() === 'externalid')?.[1];
  const members = Object.entries(body).find(([key]) => withoutCoreSchema(key).toLowerCase() === 'members')?.[1];
  return [
    { kind: 'rename', name: displayName(name) },
    { kind: 'setExternalId', externalId: externalId(external) },
    { kind: 'replaceMembers', memberIds: memberValues(members) },
  ];
}

/**
 * Translates a group's PATCH operations (already checked by `patchOperations`) into team changes,
 * in the forms Okta and Entra ID send: a path-less replace of displayName (with the id echoed),
 * members added as a value list, removed by a `members[value eq "id"]` path or by a value list
 * (every member listed, not only the first), replaced as a whole, or all removed.
 */
export function groupChanges(operations: readonly Json[]): TeamChange[] {
  const changes: TeamChange[] = [];
  for (const { op, path, value } of operations as Array<{ op: string; path?: string; value?: unknown }>) {
    if (path === undefined) {
      if (op === 'remove') throw ScimError.badRequest('noTarget', 'A remove operation needs a path.');
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw ScimError.badRequest('invalidValue', 'An operation without a path needs an object value.');
      }
      for (const [key, part] of Object.entries(value as Json)) changes.push(...attributeChange(op, withoutCoreSchema(key), part));
      continue;
    }
    const bare = withoutCoreSchema(path);
    const filtered = /^members\[(.*)\]$/is.exec(bare);
    if (filtered) {
      if (op !== 'remove') throw ScimError.badRequest('invalidPath', 'A members path with a filter can only remove members.');
      let filter: Filter;
      try {
        filter = parse(filtered[1]);
      } catch (error) {
        throw ScimError.badRequest('invalidFilter', `Invalid filter in path: ${error instanceof Error ? error.message : String(error)}`);
      }
      changes.push({ kind: 'removeMembers', memberIds: idsInMemberFilter(filter) });
      continue;
    }
    changes.push(...attributeChange(op, bare, value, true));
  }
  return changes;
}

function attributeChange(op: string, attribute: string, value: unknown, fromPath = false): TeamChange[] {
  switch (attribute.toLowerCase()) {
    case 'displayname':
      if (op === 'remove') throw ScimError.badRequest('mutability', 'displayName cannot be removed.');
      return [{ kind: 'rename', name: displayName(value) }];
    case 'externalid':
      return [{ kind: 'setExternalId', externalId: op === 'remove' ? null : externalId(value) }];
    case 'members':
      if (op === 'add') return [{ kind: 'addMembers', memberIds: memberValues(value) }];
      if (op === 'replace') return [{ kind: 'replaceMembers', memberIds: memberValues(value) }];
      return value === undefined || value === null ? [{ kind: 'replaceMembers', memberIds: [] }] : [{ kind: 'removeMembers', memberIds: memberValues(value) }];
    case 'id':
    case 'schemas':
    case 'meta':
      // Read-only attributes providers echo back (Okta sends the id with a rename).
      return [];
    default:
      if (fromPath) throw ScimError.badRequest('invalidPath', `Groups have no attribute "${attribute}" that can be changed.`);
      return [];
  }
}
