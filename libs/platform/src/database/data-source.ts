import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config';
import { PGlitePool } from './pglite-pool';

type MigrationClass = new () => MigrationInterface;

export interface DataSourceOptions {
  readonly databaseUrl?: string;
  /** Where the embedded database lives; undefined keeps it in memory (tests). */
  readonly dataDir?: string;
  readonly poolSize?: number;
  readonly migrations: readonly MigrationClass[];
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const BOOL_OID = 16;

/**
 * PGlite is one process's database: a lock file in the data directory stops a second process
 * (a second server, or the CLI while the server runs) from opening it and corrupting it.
 */
function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'faultline.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by another Faultline process (pid ${pid}). ` +
            'Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
        );
      }
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite configured to parse and serialise values as `pg` does, so both backends answer alike. */
async function openPGlite(dataDir: string | undefined) {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create({
    dataDir: dataDir ? join(dataDir, 'pglite') : undefined,
    parsers: { [INT8_OID]: (value: string) => value, [NUMERIC_OID]: (value: string) => value },
    serializers: { [BOOL_OID]: (value: unknown) => (value === true || value === 'true' ? 't' : 'f') },
  });
}

export async function createDataSource(options: DataSourceOptions): Promise<DataSource> {
  const common = {
    type: 'postgres' as const,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    migrations: [...options.migrations],
    entities: [],
  };
  if (options.databaseUrl) {
    return new DataSource({
      ...common,
      url: options.databaseUrl,
      poolSize: options.poolSize ?? 10,
      extra: { application_name: 'faultline' },
    });
  }
  const unlock = options.dataDir ? (mkdirSync(options.dataDir, { recursive: true }), lockDataDir(options.dataDir)) : () => undefined;
  let db;
  try {
    db = await openPGlite(options.dataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const pool = new PGlitePool(db, unlock);
  return new DataSource({ ...common, driver: { Pool: class { constructor() { return pool; } } } });
}

export function dataSourceOptionsFrom(config: AppConfig, migrations: readonly MigrationClass[]): DataSourceOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize: config.databasePoolSize,
    migrations,
  };
}

export function isEmbedded(dataSource: DataSource): boolean {
  return poolOf(dataSource) instanceof PGlitePool;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export function poolStats(dataSource: DataSource): PoolStats | undefined {
  const pool = poolOf(dataSource) as { totalCount?: number; idleCount?: number; waitingCount?: number } | undefined;
  if (!pool || pool.totalCount === undefined) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount ?? 0, waiting: pool.waitingCount ?? 0 };
}

function poolOf(dataSource: DataSource): unknown {
  return (dataSource.driver as unknown as { master?: unknown }).master;
}
