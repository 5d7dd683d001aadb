import type { Client } from 'pg';
import type { BackupSequence, BackupTable } from './backup-file';

/** The table TypeORM keeps the applied migrations in: written by running them, never copied. */
export const MIGRATIONS_TABLE = { schema: 'public', name: 'migrations' };
/** Object ids below this are PostgreSQL's own (FirstNormalObjectId): the same in every cluster of a major version. */
const FIRST_NORMAL_OBJECT_ID = 16384;

/** A name quoted for SQL. */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const qualified = (schema: string, name: string): string => `${quoted(schema)}.${quoted(name)}`;

/**
 * The application's tables: every ordinary or partitioned table of every schema but PostgreSQL's
 * own, with the columns a COPY carries (generated ones are computed again). A partitioned table is
 * copied whole, not partition by partition (a partition partitioned in turn neither): the days that
 * exist differ between databases, and a restore makes the days of the rows it loads.
 */
export async function applicationTables(client: Client): Promise<BackupTable[]> {
  const { rows } = await client.query<{ schema: string; name: string; columns: Array<{ name: string; type: string; typeId: number }> }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'typeId', a.atttypid) ORDER BY a.attnum) AS columns
     FROM pg_catalog.pg_class c
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relpersistence <> 't'
       AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
       AND NOT (n.nspname = $1 AND c.relname = $2)
     GROUP BY n.nspname, c.relname
     ORDER BY n.nspname, c.relname`,
    [MIGRATIONS_TABLE.schema, MIGRATIONS_TABLE.name],
  );
  return rows.map((table) => ({
    schema: table.schema,
    name: table.name,
    columns: table.columns.map(({ name, type }) => ({ name, type })),
    // A value of the database's own type (an enum, a domain, an array of them) names that type's id in binary.
    format: table.columns.every((column) => column.typeId < FIRST_NORMAL_OBJECT_ID) ? 'binary' : 'text',
  }));
}

/** Every sequence of the application's schemas with its value now (sequences are outside snapshots: never lower than a value a row holds). */
export async function applicationSequences(client: Client): Promise<BackupSequence[]> {
  const { rows } = await client.query<{ schema: string; name: string; last_value: string | null }>(
    `SELECT schemaname AS schema, sequencename AS name, last_value::text
     FROM pg_catalog.pg_sequences
     WHERE schemaname <> 'information_schema' AND schemaname NOT LIKE 'pg\\_%'
     ORDER BY schemaname, sequencename`,
  );
  return rows.map((row) => ({ schema: row.schema, name: row.name, lastValue: row.last_value }));
}

/** The names of the migrations applied, in the order they ran; undefined when the database has none (no Faultline schema). */
export async function appliedMigrations(client: Client): Promise<string[] | undefined> {
  const exists = await client.query(`SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename = $2`, [
    MIGRATIONS_TABLE.schema,
    MIGRATIONS_TABLE.name,
  ]);
  if (!exists.rowCount) return undefined;
  const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${qualified(MIGRATIONS_TABLE.schema, MIGRATIONS_TABLE.name)} ORDER BY id`);
  return rows.map((row) => row.name);
}
