import { Injectable } from '@nestjs/common';
import type { MemberEmail, MemberName } from '@faultline/identity';
import type { Sql } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';
import type { Filter } from '../domain/scim-filter';
import { MAX_GROUP_MEMBERS_LISTED } from '../domain/scim-schemas';
import { type FilterSchema, filterToSql } from './filter-sql';
import { PageBoundaries } from './page-boundaries';

export interface ScimUserRow {
  id: string;
  organization_id: string;
  user_id: string;
  user_name: string;
  role: string;
  active: boolean;
  external_id: string | null;
  display_name: string | null;
  name_parts: MemberName | null;
  emails: MemberEmail[];
  version: number;
  created: Date;
  last_modified: Date;
}

export interface ScimGroupRow {
  id: string;
  organization_id: string;
  slug: string;
  display_name: string;
  external_id: string | null;
  version: number;
  created: Date;
  last_modified: Date;
}

export interface Reference {
  value: string;
  display: string;
}

export interface Page<T> {
  total: number;
  rows: T[];
}

/** A user's groups as JSON, for the rows of a page only. */
const GROUPS_OF_USER = `(SELECT coalesce(json_agg(json_build_object('value', g.id::text, 'display', g.name) ORDER BY g.id), '[]')
  FROM identity.team_memberships gm JOIN identity.team_directory g ON g.id = gm.team_id WHERE gm.member_id = v.id) AS groups`;

const NAME = (part: string) => ({ sql: `(v.name_parts->>'${part}')`, type: 'string' as const });

/** What SCIM Users can be filtered on, over the `scim_users` view. */
export const USER_FILTER_SCHEMA: FilterSchema = {
  attributes: {
    id: { sql: 'v.id', type: 'id' },
    username: { sql: 'v.user_name', type: 'string' },
    externalid: { sql: 'v.external_id', type: 'string', caseExact: true },
    displayname: { sql: 'v.display_name', type: 'string' },
    'name.formatted': NAME('formatted'),
    'name.familyname': NAME('familyName'),
    'name.givenname': NAME('givenName'),
    'name.middlename': NAME('middleName'),
    active: { sql: 'v.active', type: 'boolean' },
    sentryorgrole: { sql: 'v.role', type: 'string' },
    'meta.created': { sql: 'v.created', type: 'datetime' },
    'meta.lastmodified': { sql: 'v.last_modified', type: 'datetime' },
  },
  multiValued: {
    emails: {
      from: 'jsonb_array_elements(v.emails) AS e(x) WHERE true',
      subAttributes: {
        value: { sql: `(e.x->>'value')`, type: 'string' },
        type: { sql: `(e.x->>'type')`, type: 'string' },
        primary: { sql: `((e.x->>'primary')::boolean)`, type: 'boolean' },
      },
      present: 'jsonb_array_length(v.emails) > 0',
    },
    groups: {
      from: 'identity.scim_groups g JOIN identity.team_memberships gm ON gm.team_id = g.id WHERE gm.member_id = v.id',
      subAttributes: { value: { sql: 'g.id', type: 'id' }, display: { sql: 'g.display_name', type: 'string' } },
      present: 'EXISTS (SELECT 1 FROM identity.team_memberships gm WHERE gm.member_id = v.id)',
    },
  },
};

/** What SCIM Groups can be filtered on, over the `scim_groups` view. */
export const GROUP_FILTER_SCHEMA: FilterSchema = {
  attributes: {
    id: { sql: 'v.id', type: 'id' },
    displayname: { sql: 'v.display_name', type: 'string' },
    externalid: { sql: 'v.external_id', type: 'string', caseExact: true },
    'meta.created': { sql: 'v.created', type: 'datetime' },
    'meta.lastmodified': { sql: 'v.last_modified', type: 'datetime' },
  },
  multiValued: {
    members: {
      from: 'identity.scim_group_members gm WHERE gm.team_id = v.id',
      subAttributes: { value: { sql: 'gm.member_id', type: 'id' }, display: { sql: 'gm.display', type: 'string' } },
      present: 'EXISTS (SELECT 1 FROM identity.team_memberships gm WHERE gm.team_id = v.id)',
    },
  },
};

/**
 * Reads SCIM Users and Groups from the views identity's tables are published through. Lists are
 * in id order, counted and paged in SQL; a page's ids are found first (an index scan for an
 * unfiltered list), then only those rows are read whole.
 */
@Injectable()
export class ScimReadRepository {
  constructor(private readonly boundaries: PageBoundaries) {}

  /** A page of users; with `withGroups`, each row carries its groups (read in the same statement). */
  listUsers(
    sql: Sql,
    organizationId: string,
    filter: Filter | undefined,
    offset: number,
    limit: number,
    withGroups: boolean,
  ): Promise<Page<ScimUserRow & { groups?: Reference[] }>> {
    const groups = withGroups ? GROUPS_OF_USER : undefined;
    if (!filter) return this.allUsers(sql, organizationId, offset, limit, groups);
    return this.list(sql, 'identity.scim_users', USER_FILTER_SCHEMA, organizationId, filter, offset, limit, groups);
  }

  listGroups(sql: Sql, organizationId: string, filter: Filter | undefined, offset: number, limit: number): Promise<Page<ScimGroupRow>> {
    return this.list<ScimGroupRow>(sql, 'identity.scim_groups', GROUP_FILTER_SCHEMA, organizationId, filter, offset, limit);
  }

  /** A user with its groups. */
  async findUser(sql: Sql, organizationId: string, memberId: string): Promise<(ScimUserRow & { groups: Reference[] }) | undefined> {
    if (!isNumericId(memberId)) return undefined;
    const [row] = await sql.query<ScimUserRow & { groups: Reference[] }>(
      `SELECT v.*, ${GROUPS_OF_USER} FROM identity.scim_users v WHERE v.organization_id = $1 AND v.id = $2::bigint`,
      [organizationId, memberId],
    );
    return row;
  }

  /** A group by id, or by slug as Sentry's SCIM paths also allow. */
  async findGroup(sql: Sql, organizationId: string, idOrSlug: string): Promise<ScimGroupRow | undefined> {
    const [row] = isNumericId(idOrSlug)
      ? await sql.query<ScimGroupRow>(`SELECT v.* FROM identity.scim_groups v WHERE v.organization_id = $1 AND v.id = $2::bigint`, [organizationId, idOrSlug])
      : await sql.query<ScimGroupRow>(`SELECT v.* FROM identity.scim_groups v WHERE v.organization_id = $1 AND v.slug = $2`, [organizationId, idOrSlug]);
    return row;
  }

  /** The members of each group (the first MAX_GROUP_MEMBERS_LISTED by id), by group id. */
  async membersOfGroups(sql: Sql, groupIds: readonly string[]): Promise<Map<string, Reference[]>> {
    const result = new Map<string, Reference[]>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return result;
    const rows = await sql.query<{ team_id: string; value: string; display: string }>(
      `SELECT team_id, value, display FROM (
         SELECT gm.team_id, gm.member_id AS value, gm.display, row_number() OVER (PARTITION BY gm.team_id ORDER BY gm.member_id) AS n
         FROM identity.scim_group_members gm WHERE gm.team_id = ANY($1::bigint[])) ranked
       WHERE n <= $2 ORDER BY team_id, value`,
      [groupIds, MAX_GROUP_MEMBERS_LISTED],
    );
    for (const row of rows) result.get(row.team_id)?.push({ value: row.value, display: row.display });
    return result;
  }

  /**
   * An unfiltered page of users: the total from the member counts the database keeps, and the
   * page from where the previous page ended when that is known (see PageBoundaries).
   */
  private async allUsers<T>(sql: Sql, organizationId: string, offset: number, limit: number, extraColumn?: string): Promise<Page<T>> {
    const [{ total, removals }] = await sql.query<{ total: number; removals: string }>(
      `SELECT COALESCE(c.members, 0)::int AS total, COALESCE(c.removals, 0)::text AS removals
       FROM (SELECT $1::bigint AS organization_id) o LEFT JOIN identity.scim_member_counts c ON c.organization_id = o.organization_id`,
      [organizationId],
    );
    if (limit === 0 || offset >= total) return { total, rows: [] };
    const afterId = this.boundaries.find(organizationId, offset, removals);
    // From the previous page's last id when known, else skipping `offset` members in id order.
    const where = afterId ? 'm.organization_id = $1 AND m.id > $2::bigint' : 'm.organization_id = $1';
    // The page's ids first, then the view's columns for them only: the view projects the members
    // table alone, so the ids come from an index-only scan of (organization_id, id).
    const rows = await sql.query<T & { id: string }>(
      `WITH page AS (SELECT m.id FROM identity.scim_users m WHERE ${where} ORDER BY m.id ${afterId ? '' : 'OFFSET $2'} LIMIT $3)
       SELECT v.*${extraColumn ? `, ${extraColumn}` : ''} FROM page JOIN identity.scim_users v ON v.id = page.id ORDER BY v.id`,
      [organizationId, afterId ?? offset, limit],
    );
    if (rows.length === limit) this.boundaries.remember(organizationId, offset + limit, removals, rows[rows.length - 1].id);
    return { total, rows };
  }

  /**
   * One statement for a filtered list (the page's ids with the count of all matches, then those
   * rows); an unfiltered list of groups counts beside the page's statement.
   */
  private async list<T>(
    sql: Sql,
    view: 'identity.scim_users' | 'identity.scim_groups',
    schema: FilterSchema,
    organizationId: string,
    filter: Filter | undefined,
    offset: number,
    limit: number,
    extraColumn?: string,
  ): Promise<Page<T>> {
    const params: unknown[] = [organizationId];
    const where = `v.organization_id = $1${filter ? ` AND ${filterToSql(filter, schema, params)}` : ''}`;
    const count = () => sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${view} v WHERE ${where}`, params);
    const page = (total: string) =>
      sql.query<T & { total?: number }>(
        `WITH page AS (SELECT v.id${total} FROM ${view} v WHERE ${where} ORDER BY v.id OFFSET $${params.length + 1} LIMIT $${params.length + 2})
         SELECT v.*${total ? ', page.total' : ''}${extraColumn ? `, ${extraColumn}` : ''} FROM page JOIN ${view} v ON v.id = page.id ORDER BY v.id`,
        [...params, offset, Math.max(limit, 1)],
      );
    if (filter) {
      const rows = await page(', count(*) OVER ()::int AS total');
      // A page past the end holds no row to read the count from.
      const total = rows.length ? rows[0].total! : offset === 0 ? 0 : (await count())[0].total;
      return { total, rows: limit === 0 ? [] : rows.map(({ total: _, ...row }) => row as T) };
    }
    if (limit === 0) return { total: (await count())[0].total, rows: [] };
    // Counting and reading the page each scan an index up to the page; side by side they take as long as the longer.
    const [[{ total }], rows] = await Promise.all([count(), page('')]);
    return { total, rows };
  }
}
