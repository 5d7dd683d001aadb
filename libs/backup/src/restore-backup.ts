import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { moveDefaultRowsIntoDays, type Sql } from '@faultline/platform';
import { BackupFileError, readBackupFile, type BackupManifest, type BackupTable } from './backup-file';
import { applicationTables, appliedMigrations, qualified, quoted } from './catalog';
import { copySql, type BackupProgress } from './take-backup';

/** The backup cannot be restored here, or not into this database; nothing was changed. */
export class RestoreRefusedError extends Error {}

/** Work on the loaded data inside the restore's transaction, before it commits (rows load with triggers off). */
export type RestoreStep = (sql: Sql) => Promise<void>;

export interface RestoreOptions {
  /** An empty database: no table, no migration applied. */
  readonly databaseUrl: string;
  readonly file: string;
  /** Applies exactly these migrations of this Faultline, in this order (the backup's). */
  readonly migrate: (names: readonly string[]) => Promise<void>;
  readonly afterLoad?: readonly RestoreStep[];
  readonly onProgress?: (progress: BackupProgress) => void;
}

export interface RestoreSummary {
  readonly tables: number;
  readonly rows: number;
}

/** Reads the whole backup and checks every byte of it; creates nothing. */
export const verifyBackup = (file: string): Promise<BackupManifest> => readBackupFile(file);

/**
 * Whether this Faultline can restore the backup: it must know every migration the backup's database
 * had run (a backup of a newer Faultline, or of one with other extension modules, has tables this
 * one does not create). Answers how many of this Faultline's migrations the backup has not run.
 */
export function checkRestorable(manifest: BackupManifest, knownMigrations: readonly string[]): number {
  const known = new Set(knownMigrations);
  const unknown = manifest.header.migrations.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new RestoreRefusedError(
      `This backup was taken by Faultline ${manifest.header.faultlineVersion}, whose database had run migrations this Faultline does not have ` +
        `(${unknown.join(', ')}). Restore it with that version or a newer one (with the same FAULTLINE_MODULES).`,
    );
  }
  const taken = new Set(manifest.header.migrations);
  return knownMigrations.filter((name) => !taken.has(name)).length;
}

/**
 * Restores a verified backup into an empty database: applies the migrations the backup was taken
 * at, then in one transaction, with triggers and foreign-key checks off, loads every table, checks
 * the file once more while reading it, sets every sequence and gives the restored rows' days their
 * partitions. Commits only if all of it matched.
 * Last, moves the database's transaction ids past any a restored row recorded.
 */
export async function restoreBackup(manifest: BackupManifest, options: RestoreOptions): Promise<RestoreSummary> {
  const client = new Client({ connectionString: options.databaseUrl, application_name: 'faultline-restore' });
  await client.connect();
  try {
    if ((await appliedMigrations(client)) !== undefined || (await applicationTables(client)).length > 0) {
      throw new RestoreRefusedError('The database to restore into is not empty: restore into a new, empty database.');
    }
    await options.migrate(manifest.header.migrations);
    checkSchema(manifest.header.tables, await applicationTables(client));

    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const tables = manifest.header.tables;
    if (tables.length) await client.query(`TRUNCATE ${tables.map((table) => qualified(table.schema, table.name)).join(', ')}`);
    const loaded: number[] = [];
    let bytes = 0;
    const reread = await readBackupFile(options.file, {
      table: async (table, index, data) => {
        const copy = client.query(copyFrom(copySql(table, 'FROM STDIN')));
        data.on('data', (chunk: Buffer) => (bytes += chunk.length));
        await pipeline(data, copy);
        loaded.push(copy.rowCount);
        options.onProgress?.({ tablesDone: index + 1, tables: tables.length, bytes });
      },
    });
    if (JSON.stringify(reread) !== JSON.stringify(manifest)) throw new BackupFileError('the file changed while it was being restored');
    for (const [index, digest] of manifest.trailer.tables.entries()) {
      if (loaded[index] !== digest.rows) {
        const table = tables[index];
        throw new BackupFileError(`${table.schema}.${table.name} loaded ${loaded[index]} rows where the backup recorded ${digest.rows}`);
      }
    }
    for (const sequence of manifest.header.sequences) {
      if (sequence.lastValue === null) continue;
      await client.query('SELECT pg_catalog.setval($1::regclass, $2::bigint, true)', [qualified(sequence.schema, sequence.name), sequence.lastValue]);
    }
    const sql: Sql = {
      query: async (text, params) => (await client.query(text, params as unknown[])).rows,
      execute: async (text, params) => (await client.query(text, params as unknown[])).rowCount ?? 0,
    };
    for (const step of options.afterLoad ?? []) await step(sql);
    await moveDefaultRowsIntoDays(sql);
    await client.query('COMMIT');

    await passTransactionIds(client, await highestTransactionId(client));
    await client.query('ANALYZE');
    const rows = loaded.reduce((sum, count) => sum + count, 0);
    return { tables: tables.length, rows };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The migrated database has the tables and columns the backup's streams were written from. */
function checkSchema(backup: readonly BackupTable[], migrated: readonly BackupTable[]): void {
  const shape = (table: BackupTable) => `${table.columns.map((column) => `${column.name} ${column.type}`).join(', ')} (${table.format})`;
  const here = new Map(migrated.map((table) => [qualified(table.schema, table.name), shape(table)]));
  const differences = backup.flatMap((table) => {
    const name = qualified(table.schema, table.name);
    const found = here.get(name);
    if (found === undefined) return [`${name} does not exist`];
    return found === shape(table) ? [] : [`${name} has columns ${found}, the backup ${shape(table)}`];
  });
  if (differences.length) {
    throw new RestoreRefusedError(`After the backup's migrations the schema is not the one the backup was taken from: ${differences.join('; ')}`);
  }
}

/** The highest transaction id (xid8) any restored row holds: ids of the cluster the backup came from. */
async function highestTransactionId(client: Client): Promise<bigint> {
  const { rows: columns } = await client.query<{ schema: string; name: string; column: string }>(
    `SELECT n.nspname AS schema, c.relname AS name, a.attname AS column
     FROM pg_catalog.pg_attribute a
     JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE a.atttypid = 'pg_catalog.xid8'::regtype AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'`,
  );
  let highest = 0n;
  for (const { schema, name, column } of columns) {
    const [{ max }] = (await client.query<{ max: string | null }>(`SELECT max(${quoted(column)})::text AS max FROM ${qualified(schema, name)}`)).rows;
    if (max !== null && BigInt(max) > highest) highest = BigInt(max);
  }
  return highest;
}

/** Some hours of commits; far fewer than the ids a cluster may use before it must freeze old rows (2^31). */
const MAX_TRANSACTION_IDS_TO_PASS = 1_000_000_000n;

/**
 * Transaction ids stored in rows (the event store orders its readers by them) come from the
 * cluster the backup was taken in; this cluster's next ids must be higher than all of them, or new
 * rows would sort before old ones. Transaction ids cannot be set, only used up: one per commit
 * (some 100,000 a second with commits not waited for; the final commit is). The event store's own
 * restore step renumbers its ids first, so that there are few to pass.
 */
async function passTransactionIds(client: Client, highest: bigint): Promise<void> {
  const [{ current }] = (await client.query<{ current: string }>('SELECT pg_catalog.pg_current_xact_id()::text AS current')).rows;
  if (BigInt(current) > highest) return;
  if (highest - BigInt(current) > MAX_TRANSACTION_IDS_TO_PASS) {
    throw new Error(
      `The restored rows hold transaction ids up to ${highest}, more than ${MAX_TRANSACTION_IDS_TO_PASS} past this database's (${current}): ` +
        'passing them would take too long. A table outside the event store keeps transaction ids; it needs a restore step of its own.',
    );
  }
  await client.query('SET synchronous_commit = off');
  await client.query(`DO $$ BEGIN WHILE pg_catalog.pg_current_xact_id() <= '${highest}'::xid8 LOOP COMMIT; END LOOP; END $$`);
  await client.query('RESET synchronous_commit');
  // A durable commit after them: it carries the ones before to disk.
  await client.query('BEGIN; SELECT pg_catalog.pg_current_xact_id(); COMMIT');
}
