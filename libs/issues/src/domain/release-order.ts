import { lt, parse, type SemVer } from 'semver';

/** `package@version` splits into its package and version; a bare version has no package. */
function parts(release: string): { pkg: string | undefined; version: string } {
  const at = release.lastIndexOf('@');
  return at > 0 ? { pkg: release.slice(0, at), version: release.slice(at + 1) } : { pkg: undefined, version: release };
}

/**
 * Whether `release` comes before `than`, when that can be told: both semantic versions (Sentry's
 * `package@1.2.3+build` form included) of the same package. Undefined otherwise.
 */
export function isOlderRelease(release: string, than: string): boolean | undefined {
  const a = parts(release);
  const b = parts(than);
  if (a.pkg !== b.pkg) return undefined;
  const versionA = parse(a.version);
  const versionB = parse(b.version);
  return versionA && versionB ? lt(versionA, versionB) : undefined;
}

/** How Sentry shows a release: without its `package@`, a commit SHA cut to 7 characters. */
export function shortReleaseVersion(release: string): string {
  const { version } = parts(release);
  return /^[0-9a-f]{40}$/i.test(version) ? version.slice(0, 7) : version;
}

/** How many of the newest releases must be semantic versions for the highest to count as the latest. */
const SEMVER_SAMPLE = 10;

/**
 * The latest of a project's releases (given newest first), as Sentry takes it: when the newest ten
 * are all semantic versions of one package, the highest version of that package; else the newest.
 */
export function latestRelease(newestFirst: readonly string[]): string | undefined {
  const [newest] = newestFirst;
  if (newest === undefined) return undefined;
  const pkg = parts(newest).pkg;
  const versionOf = (release: string): SemVer | null => {
    const { pkg: own, version } = parts(release);
    return own === pkg ? parse(version) : null;
  };
  if (!newestFirst.slice(0, SEMVER_SAMPLE).every((release) => versionOf(release))) return newest;
  let latest = newest;
  let highest = versionOf(newest) as SemVer;
  for (const release of newestFirst) {
    const version = versionOf(release);
    if (version && lt(highest, version)) {
      latest = release;
      highest = version;
    }
  }
  return latest;
}
