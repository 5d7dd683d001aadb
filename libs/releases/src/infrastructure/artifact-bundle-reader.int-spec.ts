import { zipFile } from '../../../../test/support/zip';
import { readArtifactBundle } from './artifact-bundle-reader';

const LIMITS = { maxFiles: 10, maxFileBytes: 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 };
const manifest = (files: Record<string, unknown>) => ({ name: 'manifest.json', content: JSON.stringify({ files }) });

describe('readArtifactBundle', () => {
  it('answers the files the manifest lists, with their content', async () => {
    const zip = zipFile([
      manifest({ 'files/_/_/app.js': { url: '~/app.js', type: 'minified_source', headers: { sourcemap: 'app.js.map' } } }),
      { name: 'files/_/_/app.js', content: 'var a=1;', deflate: true },
      { name: 'files/_/_/unlisted.js', content: 'var b=2;' },
    ]);
    const { files } = await readArtifactBundle(zip, LIMITS);
    expect(files).toEqual([expect.objectContaining({ path: 'files/_/_/app.js', url: '~/app.js', sourcemap: 'app.js.map', content: Buffer.from('var a=1;') })]);
  });

  it.each([
    ['a path out of the bundle', [manifest({}), { name: '../../etc/passwd', content: 'x' }], /cannot be read|invalid relative path/],
    ['an absolute path', [manifest({}), { name: '/etc/passwd', content: 'x' }], /cannot be read|absolute path/],
    ['too many files', [manifest({}), ...Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, content: 'x' }))], /more than 10 files/],
    ['a file over the limit', [manifest({}), { name: 'big', content: Buffer.alloc(1024 * 1024 + 1), deflate: true }], /larger than/],
    [
      'files over the total',
      [manifest({}), ...Array.from({ length: 3 }, (_, i) => ({ name: `f${i}`, content: Buffer.alloc(800 * 1024), deflate: true }))],
      /together/,
    ],
    [
      'a bomb that understates its size',
      [manifest({}), { name: 'bomb', content: Buffer.alloc(8 * 1024 * 1024), deflate: true, declaredSize: 10 }],
      /cannot be read/,
    ],
    ['no manifest', [{ name: 'app.js', content: 'x' }], /no manifest/],
    ['a manifest that is not JSON', [{ name: 'manifest.json', content: '{' }], /not JSON/],
  ])('refuses %s', async (_, entries, message) => {
    await expect(readArtifactBundle(zipFile(entries), LIMITS)).rejects.toThrow(message);
  });

  it('refuses what is not a zip', async () => {
    await expect(readArtifactBundle(Buffer.from('not a zip at all'), LIMITS)).rejects.toThrow(/not a zip/);
  });
});
