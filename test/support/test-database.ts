import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, Database, runMigrations } from '@faultline/platform';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';

export interface TestDatabase {
  readonly dataSource: DataSource;
  readonly database: Database;
  /** The connection string of this test's own database. */
  readonly url: string;
  close(): Promise<void>;
}

/** The server of DATABASE_URL: the machine's, or the embedded one jest's global setup starts. */
export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is unset: run the tests through jest, whose global setup starts an embedded server');
  return url;
}

/** A fresh, empty database for one test file on the PostgreSQL server of DATABASE_URL. */
export async function createTestDatabaseUrl(): Promise<string> {
  return createDatabase();
}

/**
 * A fresh database with every migration applied: a copy of this run's template, which the first
 * test file to ask builds (under an advisory lock, as test files run in parallel), so each file
 * pays for a file copy rather than for running every migration again.
 */
export async function createMigratedTestDatabaseUrl(): Promise<string> {
  const template = process.env.FAULTLINE_TEST_TEMPLATE;
  if (!template) return createDatabase();
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext($1))`, [template]);
    try {
      const [exists] = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [template])).rows;
      if (!exists) await buildTemplate(template);
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(hashtext($1))`, [template]);
    }
  } finally {
    await admin.end();
  }
  return createDatabase(template);
}

async function buildTemplate(template: string): Promise<void> {
  const building = await createDatabase();
  const dataSource = await createDataSource({ databaseUrl: building, migrations: MIGRATIONS, poolSize: 2 });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${new URL(building).pathname.slice(1)}" RENAME TO "${template}"`);
  } finally {
    await admin.end();
  }
}

async function createDatabase(template?: string): Promise<string> {
  const server = serverUrl();
  const name = `faultline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(url: string | undefined): Promise<void> {
  if (!url) return;
  const server = serverUrl();
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const url = await createMigratedTestDatabaseUrl();
  const dataSource = await createDataSource({ databaseUrl: url, migrations: MIGRATIONS, poolSize: 10 });
  await dataSource.initialize();
  await runMigrations(dataSource);
  return {
    dataSource,
    url,
    database: new Database(dataSource),
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(url);
    },
  };
}
