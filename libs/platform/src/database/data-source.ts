import { DataSource, type MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config';

type MigrationClass = new () => MigrationInterface;

export interface DataSourceOptions {
  /** A PostgreSQL server's connection string: DATABASE_URL's, or the embedded server's. */
  readonly databaseUrl: string;
  readonly poolSize?: number;
  readonly migrations: readonly MigrationClass[];
}

export async function createDataSource(options: DataSourceOptions): Promise<DataSource> {
  return new DataSource({
    type: 'postgres',
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    migrations: [...options.migrations],
    entities: [],
    url: options.databaseUrl,
    poolSize: options.poolSize ?? 10,
    extra: { application_name: 'faultline' },
  });
}

export function dataSourceOptionsFrom(config: AppConfig, databaseUrl: string, migrations: readonly MigrationClass[]): DataSourceOptions {
  return { databaseUrl, poolSize: config.databasePoolSize, migrations };
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
