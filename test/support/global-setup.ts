import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
// Relative: jest loads its global setup without the module name mapping of the test files.
import { EmbeddedPostgres } from '../../libs/embedded-postgres/src';

/** Connections for test files that run in parallel, each with its own database and pools. */
const TEST_SERVER_CONNECTIONS = 200;

const state = globalThis as { embeddedTestServer?: { server: EmbeddedPostgres; dataDir: string } };

/**
 * Without DATABASE_URL the tests run on one embedded PostgreSQL server that this run starts in a
 * temporary directory and removes afterwards; DATABASE_URL then names it for every test file,
 * which creates its own database on it. The run's migrated template database (see
 * test-database.ts) is named here and dropped at the end.
 */
export default async function globalSetup(): Promise<void> {
  process.env.FAULTLINE_TEST_TEMPLATE = `faultline_template_${process.pid}_${Date.now()}`;
  if (process.env.DATABASE_URL) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'faultline-test-server-'));
  let server: EmbeddedPostgres;
  try {
    server = await EmbeddedPostgres.start(dataDir, { maxConnections: TEST_SERVER_CONNECTIONS, listen: 'tcp', ownProcessGroup: false });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = new URL(server.url);
  url.pathname = '/postgres';
  process.env.DATABASE_URL = url.toString();
  state.embeddedTestServer = { server, dataDir };
}

export async function globalTeardown(): Promise<void> {
  const started = state.embeddedTestServer;
  if (!started) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${process.env.FAULTLINE_TEST_TEMPLATE}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    return;
  }
  await started.server.stop();
  rmSync(started.dataDir, { recursive: true, force: true });
}
