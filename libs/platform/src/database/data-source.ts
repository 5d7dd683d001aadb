import { mkdirSync } from 'node:fs';
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

/** PGlite configured to parse and serialise values as `pg` does, so both backends answer alike. */
async function openPGlite(dataDir: string | undefined) {
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
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
  const pool = new PGlitePool(await openPGlite(options.dataDir));
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
