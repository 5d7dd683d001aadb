export { type DataDirLock, lockDataDir } from './data-dir-lock';
export { type EmbeddedDatabase, EmbeddedDatabaseError, openEmbeddedDatabase, PGLITE_DIR } from './embedded-database';
export { EmbeddedPostgres, type EmbeddedPostgresOptions, embeddedPaths, runningServerUrl } from './embedded-postgres';
