import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BackupFileWriter, FORMAT_VERSION, type BackupHeader, type BackupTable } from './backup-file';
import { applicationSequences, applicationTables, appliedMigrations, qualified, quoted } from './catalog';

export interface BackupProgress {
  readonly tablesDone: number;
  readonly tables: number;
  /** Uncompressed bytes written. */
  readonly bytes: number;
}

export interface TakeBackupOptions {
  /** The database to back up (the embedded server's or DATABASE_URL). */
  readonly databaseUrl: string;
  readonly file: string;
  readonly faultlineVersion: string;
  /** The time the backup is taken, as recorded in it. */
  readonly now: Date;
  readonly onProgress?: (progress: BackupProgress) => void;
}

export interface BackupSummary {
  readonly tables: number;
  readonly rows: number;
  readonly bytes: number;
  readonly migrations: number;
}

/** The SQL that streams a table's rows in the columns and format the header describes (a partitioned table is read through a query). */
export function copySql(table: BackupTable, direction: 'TO STDOUT' | 'FROM STDIN'): string {
  const columns = table.columns.map((column) => quoted(column.name)).join(', ');
  const source =
    direction === 'TO STDOUT' ? `(SELECT ${columns} FROM ${qualified(table.schema, table.name)})` : `${qualified(table.schema, table.name)} (${columns})`;
  return `COPY ${source} ${direction} (FORMAT ${table.format})`;
}

/**
 * A logical backup of the whole database as one snapshot: every table of every schema as of one
 * moment, read in a repeatable-read transaction while the service goes on writing. Nothing is
 * locked against writers (each table only against being dropped). Written to `<file>.tmp`, renamed
 * to `file` when whole.
 */
export async function takeBackup(options: TakeBackupOptions): Promise<BackupSummary> {
  const client = new Client({ connectionString: options.databaseUrl, application_name: 'faultline-backup' });
  await client.connect();
  let writer: BackupFileWriter | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The first statement takes the snapshot: the migrations, the catalog and every table are read as of it.
    const migrations = await appliedMigrations(client);
    if (!migrations?.length) throw new Error('the database has no Faultline schema (no migration has run): nothing to back up');
    const tables = await applicationTables(client);
    if (tables.length) await client.query(`LOCK TABLE ${tables.map((table) => qualified(table.schema, table.name)).join(', ')} IN ACCESS SHARE MODE`);
    const [{ major }] = (await client.query<{ major: number }>(`SELECT current_setting('server_version_num')::int / 10000 AS major`)).rows;
    // Read after the snapshot was taken, a sequence is past every value the snapshot's rows hold.
    const sequences = await applicationSequences(client);
    const header: BackupHeader = {
      format: FORMAT_VERSION,
      faultlineVersion: options.faultlineVersion,
      createdAt: options.now.toISOString(),
      postgresMajor: major,
      migrations,
      tables,
      sequences,
    };
    writer = BackupFileWriter.create(options.file);
    await writer.writeHeader(header);
    let rows = 0;
    for (const [index, table] of tables.entries()) {
      const stream = client.query(copyTo(copySql(table, 'TO STDOUT')));
      const digest = await writer.writeTable(stream, () => stream.rowCount);
      rows += digest.rows;
      options.onProgress?.({ tablesDone: index + 1, tables: tables.length, bytes: writer.bytes });
    }
    await client.query('COMMIT');
    const bytes = writer.bytes;
    await writer.finish();
    writer = undefined;
    return { tables: tables.length, rows, bytes, migrations: migrations.length };
  } finally {
    await writer?.abort();
    await client.end();
  }
}
