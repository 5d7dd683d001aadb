import { Injectable } from '@nestjs/common';
import { isNumericId } from '@faultline/kernel';
import { Database, type Sql, type Transaction } from '@faultline/platform';
import type { SavedSearchVisibility } from '../domain';

/** One saved issue search. */
export interface SavedSearchRow {
  id: string;
  organization_id: string;
  owner_id: string | null;
  visibility: SavedSearchVisibility;
  name: string;
  query: string;
  sort: string;
  date_created: Date;
}

export interface SavedSearchFields {
  readonly name: string;
  readonly query: string;
  readonly sort: string;
  readonly visibility: SavedSearchVisibility;
}

const COLUMNS = `id::text AS id, organization_id::text AS organization_id, owner_id::text AS owner_id, visibility, name, query, sort, date_created`;

/** Saved issue searches, always read within their organization. */
@Injectable()
export class SavedSearchesRepository {
  constructor(private readonly database: Database) {}

  /** The organization's shared searches and the user's own, by name. */
  async visibleTo(organizationId: string, userId: string | undefined): Promise<SavedSearchRow[]> {
    return this.database.query<SavedSearchRow>(
      `SELECT ${COLUMNS} FROM issues.saved_searches
       WHERE organization_id = $1::bigint AND (visibility = 'organization' OR owner_id = $2::bigint)
       ORDER BY lower(name), id`,
      [organizationId, userId ?? null],
    );
  }

  /** A search of the organization, locked for a change when read in a transaction. */
  async find(sql: Sql, organizationId: string, id: string, lock = false): Promise<SavedSearchRow | null> {
    if (!isNumericId(id)) return null;
    const [row] = await sql.query<SavedSearchRow>(
      `SELECT ${COLUMNS} FROM issues.saved_searches WHERE organization_id = $1::bigint AND id = $2::bigint ${lock ? 'FOR UPDATE' : ''}`,
      [organizationId, id],
    );
    return row ?? null;
  }

  /**
   * Serialises the organization's changes of saved searches, so that two requests cannot both pass
   * the count budget or the duplicate check.
   */
  async lockOrganization(tx: Transaction, organizationId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('issues.saved_searches', $1::bigint))`, [organizationId]);
  }

  /** How many searches of this visibility the owner (or, for shared ones, the organization) keeps. */
  async countOf(sql: Sql, organizationId: string, visibility: SavedSearchVisibility, ownerId: string | null): Promise<number> {
    const [row] = await sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM issues.saved_searches
       WHERE organization_id = $1::bigint AND visibility = $2 AND ($2 = 'organization' OR owner_id = $3::bigint)`,
      [organizationId, visibility, ownerId],
    );
    return row.count;
  }

  /** Whether another search of the same scope (the owner's, or the organization's) has this query. */
  async hasQuery(sql: Sql, organizationId: string, fields: SavedSearchFields, ownerId: string | null, exceptId?: string): Promise<boolean> {
    const [row] = await sql.query(
      `SELECT 1 FROM issues.saved_searches
       WHERE organization_id = $1::bigint AND visibility = $2 AND ($2 = 'organization' OR owner_id = $3::bigint)
         AND query = $4 AND ($5::bigint IS NULL OR id <> $5::bigint) LIMIT 1`,
      [organizationId, fields.visibility, ownerId, fields.query, exceptId ?? null],
    );
    return row !== undefined;
  }

  async insert(sql: Sql, organizationId: string, ownerId: string | null, fields: SavedSearchFields, at: Date): Promise<SavedSearchRow> {
    const [row] = await sql.query<SavedSearchRow>(
      `INSERT INTO issues.saved_searches (organization_id, owner_id, visibility, name, query, sort, date_created)
       VALUES ($1::bigint, $2::bigint, $3, $4, $5, $6, $7::timestamptz) RETURNING ${COLUMNS}`,
      [organizationId, ownerId, fields.visibility, fields.name, fields.query, fields.sort, at.toISOString()],
    );
    return row;
  }

  async update(sql: Sql, id: string, ownerId: string | null, fields: SavedSearchFields): Promise<SavedSearchRow> {
    const [row] = await sql.query<SavedSearchRow>(
      `UPDATE issues.saved_searches SET owner_id = $2::bigint, visibility = $3, name = $4, query = $5, sort = $6
       WHERE id = $1::bigint RETURNING ${COLUMNS}`,
      [id, ownerId, fields.visibility, fields.name, fields.query, fields.sort],
    );
    return row;
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.execute(`DELETE FROM issues.saved_searches WHERE id = $1::bigint`, [id]);
  }
}
