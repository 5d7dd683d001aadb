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

/** A fresh database for one test file on the PostgreSQL server of DATABASE_URL. */
export async function createTestDatabaseUrl(): Promise<string> {
  const server = serverUrl();
  const name = `faultline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
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
  const url = await createTestDatabaseUrl();
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
