/** Sentry's rules for a release name: what breaks URLs or the UI is refused, not repaired. */
export const MAX_VERSION_LENGTH = 200;

export function releaseVersionProblem(version: string): string | undefined {
  if (version.trim() === '' || version !== version.trim()) return 'Release version must not be empty or start or end with whitespace.';
  if (version.length > MAX_VERSION_LENGTH) return `Release version must be at most ${MAX_VERSION_LENGTH} characters.`;
  if (version === '.' || version === '..' || version.toLowerCase() === 'latest') return `Release version "${version}" is reserved.`;
  if (/[\r\n\t\f\v/\\]/.test(version)) return 'Release version must not contain slashes or line breaks.';
  return undefined;
}

export interface VersionInfo {
  package: string | null;
  version: { raw: string };
  description: string;
  buildHash: string | null;
}

const COMMIT_HASH = /^[0-9a-f]{40}$/i;

/** `package@version+build` as Sentry splits it; a bare commit hash is shown by its first 12 characters. */
export function versionInfo(version: string): VersionInfo {
  const at = version.indexOf('@');
  const packageName = at > 0 ? version.slice(0, at) : null;
  const raw = at > 0 ? version.slice(at + 1) : version;
  const buildHash = COMMIT_HASH.test(raw) ? raw : null;
  return { package: packageName, version: { raw }, description: buildHash ? buildHash.slice(0, 12) : raw, buildHash };
}
