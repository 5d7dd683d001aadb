import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'public-url';

/**
 * The URL the service last listened at, kept in DATA_DIR so that the CLI, run without PORT or
 * PUBLIC_URL beside a service started with them, prints DSNs and links that reach that service.
 */
export function recordPublicUrl(dataDir: string, publicUrl: string): void {
  writeFileSync(join(dataDir, FILE), `${publicUrl}\n`);
}

export function recordedPublicUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
