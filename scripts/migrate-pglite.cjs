// Moves a DATA_DIR written by Faultline's earlier embedded database (PGlite, PostgreSQL in
// WebAssembly) onto the embedded PostgreSQL server: PGlite and its pg_dump are installed into a
// temporary directory (they are no dependency of Faultline), the whole database is dumped, loaded
// into a fresh cluster in the same DATA_DIR, and the old directory is renamed to pglite.migrated.
// Usage: npm run migrate:pglite -- <DATA_DIR>   (with the service stopped)
const { spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { Client } = require('pg');
const { EmbeddedPostgres, lockDataDir, PGLITE_DIR } = require('../dist/libs/embedded-postgres/src');

// The last PGlite Faultline used, and the pg_dump build for it.
const PGLITE = '@electric-sql/pglite@0.5.16';
const PGLITE_TOOLS = '@electric-sql/pglite-tools@0.4.8';

async function main() {
  const dataDir = resolve(process.argv[2] ?? process.env.DATA_DIR ?? './data');
  const source = join(dataDir, PGLITE_DIR);
  if (!existsSync(join(source, 'PG_VERSION'))) throw new Error(`${source} holds no PGlite database`);
  // Held until this process exits, which releases it.
  const lock = await lockDataDir(dataDir);
  if ('heldBy' in lock) throw new Error(`Faultline${lock.heldBy ? ` (pid ${lock.heldBy})` : ''} is using ${dataDir}; stop it first`);
  if (existsSync(join(dataDir, 'postgres'))) throw new Error(`${join(dataDir, 'postgres')} exists already; move it away to migrate again`);

  const tools = mkdtempSync(join(tmpdir(), 'faultline-pglite-'));
  try {
    console.log(`installing ${PGLITE} and ${PGLITE_TOOLS} into ${tools}`);
    writeFileSync(join(tools, 'package.json'), '{"private":true}');
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', PGLITE, PGLITE_TOOLS], {
      cwd: tools,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (install.status !== 0) throw new Error('npm install of PGlite failed');
    const load = createRequire(join(tools, 'package.json'));
    const { PGlite } = load('@electric-sql/pglite');
    const { pgDump } = load('@electric-sql/pglite-tools/pg_dump');

    console.log(`dumping ${source}`);
    const pglite = await PGlite.create({ dataDir: source });
    // INSERT statements rather than COPY: the dump then runs as plain SQL over a client connection.
    const dump = await (await pgDump({ pg: pglite, args: ['--no-owner', '--no-privileges', '--inserts', '--rows-per-insert=500'] })).text();
    await pglite.close();
    // pg_dump's psql meta-commands (\restrict, \unrestrict) are for psql; a plain connection skips them.
    const sql = dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');

    console.log(`loading ${Math.round(dump.length / 1024)} KB into the embedded PostgreSQL server`);
    const server = await EmbeddedPostgres.start(dataDir, { maxConnections: 10, log: console.log });
    try {
      const client = new Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  } catch (error) {
    rmSync(join(dataDir, 'postgres'), { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
  renameSync(source, `${source}.migrated`);
  console.log(`done: ${dataDir} now holds an embedded PostgreSQL cluster; the PGlite data stays in ${source}.migrated until you remove it`);
}

main().catch((error) => {
  console.error(`migrate:pglite: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
