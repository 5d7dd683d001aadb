import { ERROR_SCHEMA, GROUP_SCHEMA, LIST_RESPONSE_SCHEMA, USER_SCHEMA } from '../domain/scim-schemas';
import type { Reference, ScimGroupRow, ScimUserRow } from '../infrastructure/scim-read.repository';

type Json = Record<string, unknown>;

/** The weak ETag of a resource version; `meta.version` and the ETag header carry it. */
export const etag = (version: number): string => `W/"${version}"`;

/** The version an If-Match header names, or undefined when it names none (absent or `*`). */
export function versionFromIfMatch(header: string | undefined): number | undefined {
  if (!header || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  // An ETag this server never issued matches no version.
  return match ? Number(match[1]) : -1;
}

export function scimUser(row: ScimUserRow, groups: Reference[] | undefined, location: string): Json {
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    // Sentry's schema requires both names and each e-mail's type and primary flag: what no provider
    // sent is answered with the neutral values Sentry uses (N/A, work).
    name: { givenName: 'N/A', familyName: 'N/A', ...(row.name_parts ?? {}) },
    ...(row.display_name !== null ? { displayName: row.display_name } : {}),
    emails: row.emails.map((email) => ({ value: email.value, type: email.type ?? 'work', primary: email.primary === true })),
    active: row.active,
    ...(groups ? { groups } : {}),
    sentryOrgRole: row.role,
    meta: {
      resourceType: 'User',
      created: row.created.toISOString(),
      lastModified: row.last_modified.toISOString(),
      location,
      version: etag(row.version),
    },
  };
}

export function scimGroup(row: ScimGroupRow, members: Reference[] | undefined, location: string): Json {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(members ? { members } : {}),
    meta: {
      resourceType: 'Group',
      created: row.created.toISOString(),
      lastModified: row.last_modified.toISOString(),
      location,
      version: etag(row.version),
    },
  };
}

export function listResponse(resources: Json[], totalResults: number, startIndex: number): Json {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

export function scimErrorBody(status: number, detail: string, scimType?: string): Json {
  return { schemas: [ERROR_SCHEMA], status: String(status), detail, ...(scimType ? { scimType } : {}) };
}

const ALWAYS_RETURNED = new Set(['id', 'schemas']);

/**
 * Applies `attributes` (only these, plus id and schemas) or `excludedAttributes` to a resource.
 * Paths are case-insensitive, may carry the core schema URN and may name a sub-attribute
 * (`name.givenName`).
 */
export function project(resource: Json, attributes: string[] | undefined, excluded: string[] | undefined): Json {
  if (attributes?.length) {
    const result: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      if (ALWAYS_RETURNED.has(key)) {
        result[key] = value;
        continue;
      }
      const wanted = attributes.filter((path) => path.split('.')[0] === key.toLowerCase());
      if (wanted.length === 0) continue;
      if (wanted.some((path) => !path.includes('.')) || typeof value !== 'object' || value === null) {
        result[key] = value;
        continue;
      }
      result[key] = pickSubAttributes(
        value,
        wanted.map((path) => path.split('.')[1]),
      );
    }
    return result;
  }
  if (excluded?.length) {
    const result: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      if (!ALWAYS_RETURNED.has(key) && excluded.includes(lower)) continue;
      const subs = excluded.filter((path) => path.startsWith(`${lower}.`)).map((path) => path.split('.')[1]);
      result[key] = subs.length && typeof value === 'object' && value !== null ? omitSubAttributes(value, subs) : value;
    }
    return result;
  }
  return resource;
}

function pickSubAttributes(value: object, subs: string[]): unknown {
  const pick = (item: Json) => Object.fromEntries(Object.entries(item).filter(([key]) => subs.includes(key.toLowerCase())));
  return Array.isArray(value) ? value.map(pick) : pick(value as Json);
}

function omitSubAttributes(value: object, subs: string[]): unknown {
  const omit = (item: Json) => Object.fromEntries(Object.entries(item).filter(([key]) => !subs.includes(key.toLowerCase())));
  return Array.isArray(value) ? value.map(omit) : omit(value as Json);
}
