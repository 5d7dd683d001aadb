import { lt, parse } from 'semver';

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
