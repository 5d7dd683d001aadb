import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { EmbeddedPostgres, runningServerUrl } from './embedded-postgres';

export interface EmbeddedDatabase {
  /** The connection string of the application's database. */
  readonly url: string;
  /** Stops the server if this process started it, and releases DATA_DIR. */
  close(): Promise<void>;
}

/** Connections beyond the process's pool that the server accepts: the CLI, a pg_dump, an admin's psql. */
const SPARE_CONNECTIONS = 10;

export interface OpenEmbeddedOptions {
  /** The connection pool size of the process (DATABASE_POOL_SIZE). */
  readonly poolSize: number;
  /**
   * A service needs DATA_DIR to itself. A command-line run may share it: it uses the server of the
   * service that holds DATA_DIR, and starts one itself only when no service runs.
   */
  readonly shareWithService?: boolean;
  readonly log?: (message: string) => void;
}

export class EmbeddedDatabaseError extends Error {}

/** The previous embedded database, PostgreSQL compiled to WebAssembly, kept its cluster here. */
export const PGLITE_DIR = 'pglite';

export function pgliteMigrationMessage(dataDir: string): string {
  return (
    `${join(dataDir, PGLITE_DIR)} holds a database written by an earlier Faultline version (PGlite), which this ` +
    'version no longer reads: it runs PostgreSQL itself. Move the data over once with ' +
    `\`npm run migrate:pglite -- ${dataDir}\` (see docs/operations.md, "Upgrades"), then start again.`
  );
}

/**
 * The embedded PostgreSQL server in DATA_DIR, started unless a service already runs it (then, for
 * a shared opening, its connection string). A lock the OS holds for the process keeps DATA_DIR to one Faultline process.
 */
export async function openEmbeddedDatabase(dataDir: string, options: OpenEmbeddedOptions): Promise<EmbeddedDatabase> {
  if (existsSync(join(dataDir, PGLITE_DIR, 'PG_VERSION'))) throw new EmbeddedDatabaseError(pgliteMigrationMessage(dataDir));
  mkdirSync(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  if ('heldBy' in lock) {
    const url = options.shareWithService ? runningServerUrl(dataDir) : undefined;
    if (url) return { url, close: async () => undefined };
    throw new EmbeddedDatabaseError(
      `The embedded database in ${dataDir} is in use by another Faultline process${lock.heldBy ? ` (pid ${lock.heldBy})` : ''}. ` +
        'Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
  }
  let server: EmbeddedPostgres;
  try {
    server = await EmbeddedPostgres.start(dataDir, { maxConnections: options.poolSize + SPARE_CONNECTIONS, log: options.log });
  } catch (error) {
    await lock.release();
    throw error;
  }
  return {
    url: server.url,
    async close() {
      try {
        await server.stop();
      } finally {
        await lock.release();
      }
    },
  };
}
