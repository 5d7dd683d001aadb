import type { DataSource } from 'typeorm';

/** Any fixed number: the advisory lock that lets one of several starting processes migrate. */
const MIGRATION_LOCK_KEY = 7_146_203_911;

/**
 * Applies pending migrations. A session advisory lock makes processes that start together take
 * turns, so each migration runs once.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}
