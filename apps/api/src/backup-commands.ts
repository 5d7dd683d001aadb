import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BackupFileError, type BackupManifest, type BackupProgress, checkRestorable, restoreBackup, takeBackup, verifyBackup } from '@faultline/backup';
import { openEmbeddedDatabase } from '@faultline/embedded-postgres';
import { renumberRestoredTransactionIds } from '@faultline/event-store';
import { type AppConfig, createDataSource, dataSourceOptionsFrom, type MigrationClass, runMigrations } from '@faultline/platform';
import { packageRoot } from '../../web/src';

export class RestoreTargetError extends Error {}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Progress on one line of the terminal; nothing when stderr is a file or a pipe. */
function progressLine(verb: string): { show: (progress: BackupProgress) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    show: ({ tablesDone, tables, bytes }) => {
      if (!tty) return;
      process.stderr.write(`\r${verb} ${tablesDone}/${tables} tables, ${megabytes(bytes)}`);
      shown = true;
    },
    end: () => {
      if (shown) process.stderr.write('\n');
    },
  };
}

function faultlineVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(__dirname), 'package.json'), 'utf8')) as { version: string }).version;
}

const migrationName = (migration: MigrationClass): string => new migration().name ?? migration.name;

/** `backup FILE`: a consistent logical backup of the database in `databaseUrl`, taken while the service runs. */
export async function backupCommand(file: string, databaseUrl: string, now: Date, print: (line: string) => void): Promise<void> {
  const progress = progressLine('Backing up:');
  let summary;
  try {
    summary = await takeBackup({ databaseUrl, file, faultlineVersion: faultlineVersion(), now, onProgress: progress.show });
  } finally {
    progress.end();
  }
  print(
    `Backed up ${summary.tables} tables, ${summary.rows} rows (${megabytes(summary.bytes)} before compression) to ${file} (${megabytes(statSync(file).size)}).`,
  );
}

/** Reads the whole file and checks it as a restore would first; `describe` prints what it holds. */
async function verified(file: string, restoring: boolean) {
  if (!existsSync(file)) throw new RestoreTargetError(`no backup file ${file}`);
  return verifyBackup(file).catch((error: unknown) => {
    if (error instanceof BackupFileError) {
      throw new RestoreTargetError(`${file} is not a whole Faultline backup${restoring ? ' (nothing was restored)' : ''}: ${error.message}`);
    }
    throw error;
  });
}

const describe = (file: string, manifest: BackupManifest) =>
  `${file}: a whole backup of Faultline ${manifest.header.faultlineVersion} taken ${manifest.header.createdAt} ` +
  `(PostgreSQL ${manifest.header.postgresMajor}, ${manifest.header.tables.length} tables, ` +
  `${manifest.trailer.tables.reduce((sum, table) => sum + table.rows, 0)} rows).`;

/** `check-backup FILE`: whether FILE is whole and this Faultline can restore it, without restoring it. */
export async function checkBackupCommand(file: string, migrations: readonly MigrationClass[], print: (line: string) => void): Promise<void> {
  const manifest = await verified(file, false);
  const pending = checkRestorable(manifest, migrations.map(migrationName));
  print(describe(file, manifest));
  print(`This Faultline can restore it${pending ? ` (and applies ${pending} newer migration(s) when the service starts)` : ''}.`);
}

/**
 * `restore FILE`: checks the whole file, then restores it into DATABASE_URL's database (which must
 * be empty) or, without it, into a new embedded database in DATA_DIR (which must be empty: a
 * restore never mixes with or replaces data). A failed restore into DATA_DIR leaves it empty.
 */
export async function restoreCommand(file: string, config: AppConfig, migrations: readonly MigrationClass[], print: (line: string) => void): Promise<void> {
  const embedded = config.databaseUrl === undefined;
  if (embedded && existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0) {
    throw new RestoreTargetError(
      `DATA_DIR ${config.dataDir} is not empty: a restore goes into a new, empty directory. Set DATA_DIR to one ` +
        '(then start the service with it), or move the directory away first.',
    );
  }
  const manifest = await verified(file, true);
  const pending = checkRestorable(manifest, migrations.map(migrationName));
  print(describe(file, manifest));

  const database = embedded ? await openEmbeddedDatabase(config.dataDir, { poolSize: 1 }) : undefined;
  const databaseUrl = config.databaseUrl ?? database!.url;
  const migrate = async (names: readonly string[]) => {
    const wanted = new Set(names);
    const dataSource = await createDataSource(
      dataSourceOptionsFrom(
        config,
        databaseUrl,
        migrations.filter((migration) => wanted.has(migrationName(migration))),
      ),
    );
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
    } finally {
      await dataSource.destroy();
    }
  };
  const progress = progressLine('Restoring:');
  let summary;
  try {
    summary = await restoreBackup(manifest, { databaseUrl, file, migrate, afterLoad: [renumberRestoredTransactionIds], onProgress: progress.show });
  } catch (error) {
    if (database) {
      await database.close();
      for (const entry of readdirSync(config.dataDir)) rmSync(join(config.dataDir, entry), { recursive: true, force: true });
    }
    throw error;
  } finally {
    progress.end();
  }
  await database?.close();
  print(`Restored ${summary.tables} tables, ${summary.rows} rows into ${embedded ? config.dataDir : 'the database of DATABASE_URL'}.`);
  if (pending) print(`This Faultline has ${pending} migration(s) the backup had not run: the service applies them when it starts.`);
}
