import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { BundleError, manifestEntries, type ManifestEntry } from '../domain/bundle-manifest';

export interface BundleLimits {
  /** Files in one bundle. */
  maxFiles: number;
  /** Uncompressed bytes of one file. */
  maxFileBytes: number;
  /** Uncompressed bytes of all files together. */
  maxTotalBytes: number;
}

export interface BundleFile extends ManifestEntry {
  content: Buffer;
}

/** A bundle as read: its files, and the manifest (for its declared id). */
export interface ArtifactBundle {
  manifest: unknown;
  files: BundleFile[];
}

const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/**
 * Reads an artifact bundle (a zip with `manifest.json`) within limits: entry count, each entry's
 * and the total uncompressed size are checked against what the zip declares and against what
 * inflating actually yields (yauzl validates both), and yauzl refuses absolute and `..` paths.
 */
export async function readArtifactBundle(zip: Buffer, limits: BundleLimits): Promise<ArtifactBundle> {
  const archive = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, file) =>
      error ? reject(new BundleError(`not a zip file: ${error.message}`)) : resolve(file),
    ),
  );
  try {
    const contents = await readEntries(archive, limits);
    const manifest = contents.get('manifest.json');
    if (!manifest) throw new BundleError('the bundle has no manifest.json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest.toString('utf8'));
    } catch {
      throw new BundleError('manifest.json is not JSON');
    }
    const files: BundleFile[] = [];
    for (const entry of manifestEntries(parsed)) {
      const content = contents.get(entry.path) ?? contents.get(`files/${entry.path}`);
      if (content) files.push({ ...entry, content });
    }
    return { manifest: parsed, files };
  } finally {
    archive.close();
  }
}

async function readEntries(archive: ZipFile, limits: BundleLimits): Promise<Map<string, Buffer>> {
  if (archive.entryCount > limits.maxFiles + 1) throw new BundleError(`the bundle holds more than ${limits.maxFiles} files`);
  const contents = new Map<string, Buffer>();
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(error instanceof BundleError ? error : new BundleError(`the bundle cannot be read: ${error instanceof Error ? error.message : String(error)}`));
    archive.on('error', fail);
    archive.on('end', () => resolve(contents));
    archive.on('entry', (entry: Entry) => {
      if (entry.fileName.endsWith('/')) return archive.readEntry();
      const max = entry.fileName === 'manifest.json' ? MAX_MANIFEST_BYTES : limits.maxFileBytes;
      if (entry.uncompressedSize > max) return fail(new BundleError(`${entry.fileName} is larger than ${max} bytes`));
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) return fail(new BundleError(`the bundle's files are larger than ${limits.maxTotalBytes} bytes together`));
      archive.openReadStream(entry, (error, stream) => {
        if (error) return fail(error);
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('error', fail);
        stream.on('end', () => {
          contents.set(entry.fileName, Buffer.concat(parts));
          archive.readEntry();
        });
      });
    });
    archive.readEntry();
  });
}
