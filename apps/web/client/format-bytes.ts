/** Bytes as a person reads them (512 B, 4.0 KiB, 23.5 GiB): the one formatter of every size the client shows. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return String(bytes);
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Sentry's device and app context keys that hold a byte count. */
export const BYTE_CONTEXT_KEYS: ReadonlySet<string> = new Set([
  'memory_size',
  'free_memory',
  'usable_memory',
  'storage_size',
  'free_storage',
  'external_storage_size',
  'external_free_storage',
  'app_memory',
]);
