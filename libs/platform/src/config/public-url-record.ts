import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'public-url';

/**
 * The URL the service last listened at, kept in DATA_DIR so that the CLI, run without PORT or
 * PUBLIC_URL beside a service started with them, prints DSNs and links that reach that service.
 * A convenience only: a DATA_DIR that cannot be written (a read-only container) is no reason to stop.
 */
export function recordPublicUrl(dataDir: string, publicUrl: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, FILE), `${publicUrl}\n`);
  } catch {
    // The CLI then falls back to PORT and PUBLIC_URL, as before.
  }
}

export function recordedPublicUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
