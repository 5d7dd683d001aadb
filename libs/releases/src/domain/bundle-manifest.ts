/** A file an artifact bundle's `manifest.json` lists, as sentry-cli writes it. */
export interface ManifestEntry {
  /** The file's path in the zip. */
  path: string;
  url: string | null;
  type: string;
  debugId: string | null;
  /** The `sourcemap` header: where the file's map is, relative to its URL. */
  sourcemap: string | null;
}

export const ARTIFACT_TYPES = new Set(['source', 'minified_source', 'source_map', 'indexed_ram_bundle']);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

import { sourceMappingUrlOf } from './source-map-urls';

export class BundleError extends Error {}

/** Where a JavaScript file says its map is (its `sourceMappingURL` comment); maps themselves name none. */
export function sourceMapReference(type: string, content: Buffer): string | null {
  if (type === 'source_map') return null;
  return sourceMappingUrlOf(content.subarray(Math.max(0, content.length - 4096)).toString('utf8')) ?? null;
}

/** A debug ID in its canonical form (lowercase, hyphenated), or null when it is none. */
export function canonicalDebugId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim().slice(0, 36);
  if (!UUID.test(trimmed)) return null;
  const hex = trimmed.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A bundle's id (Sentry's `bundleId`): the manifest's `debug_id`, else its older `bundle_id`, as
 * sentry-cli writes them; else a UUID of the bundle checksum's first 32 hex digits, so the same
 * bundle always gets the same id (the migration gives stored bundles the same).
 */
export function bundleIdOf(manifest: unknown, checksum: string): string {
  const declared = isObject(manifest) ? (canonicalDebugId(manifest.debug_id) ?? canonicalDebugId(manifest.bundle_id)) : null;
  return declared ?? (canonicalDebugId(checksum.replace('release-files:', '').slice(0, 32)) as string);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 2048): string | null => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : null);

/** The files a bundle manifest lists; headers are matched case-insensitively, as HTTP headers are. */
export function manifestEntries(manifest: unknown): ManifestEntry[] {
  if (!isObject(manifest) || !isObject(manifest.files)) throw new BundleError('manifest.json lists no files');
  const entries: ManifestEntry[] = [];
  for (const [path, info] of Object.entries(manifest.files)) {
    if (!isObject(info)) continue;
    const headers = isObject(info.headers) ? Object.fromEntries(Object.entries(info.headers).map(([key, value]) => [key.toLowerCase(), value])) : {};
    const type = typeof info.type === 'string' && ARTIFACT_TYPES.has(info.type) ? info.type : 'source';
    entries.push({
      path,
      url: text(info.url),
      type,
      debugId: canonicalDebugId(headers['debug-id']),
      sourcemap: text(headers.sourcemap ?? headers['x-sourcemap']),
    });
  }
  return entries;
}
