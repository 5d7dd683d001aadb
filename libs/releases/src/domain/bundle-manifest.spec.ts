import fc from 'fast-check';
import { bundleIdOf, canonicalDebugId, manifestEntries } from './bundle-manifest';

describe('manifestEntries', () => {
  it('reads the files sentry-cli lists, with their debug IDs and map references', () => {
    const manifest = {
      files: {
        'files/_/_/app.min.js': {
          url: '~/app.min.js',
          type: 'minified_source',
          headers: { 'debug-id': 'C0FFEE00-1111-4222-8333-444455556666', Sourcemap: 'app.min.js.map' },
        },
        'files/_/_/app.min.js.map': { url: '~/app.min.js.map', type: 'source_map', headers: { 'debug-id': 'c0ffee00111142228333444455556666' } },
      },
    };
    expect(manifestEntries(manifest)).toEqual([
      {
        path: 'files/_/_/app.min.js',
        url: '~/app.min.js',
        type: 'minified_source',
        debugId: 'c0ffee00-1111-4222-8333-444455556666',
        sourcemap: 'app.min.js.map',
      },
      { path: 'files/_/_/app.min.js.map', url: '~/app.min.js.map', type: 'source_map', debugId: 'c0ffee00-1111-4222-8333-444455556666', sourcemap: null },
    ]);
  });

  it('refuses a manifest without files', () => {
    expect(() => manifestEntries({})).toThrow('manifest.json lists no files');
    expect(() => manifestEntries([])).toThrow();
  });

  it('never throws on any JSON files object, and answers only known types', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (files) => {
        for (const entry of manifestEntries({ files })) expect(['source', 'minified_source', 'source_map', 'indexed_ram_bundle']).toContain(entry.type);
      }),
    );
  });
});

describe('canonicalDebugId', () => {
  it('answers lowercase hyphenated UUIDs and null for anything else', () => {
    expect(canonicalDebugId('ABCDEF00-1111-2222-3333-444455556666')).toBe('abcdef00-1111-2222-3333-444455556666');
    expect(canonicalDebugId('nope')).toBeNull();
    expect(canonicalDebugId(7)).toBeNull();
  });
});

describe('bundleIdOf', () => {
  const checksum = '0123456789abcdef0123456789abcdef01234567';

  it("takes the manifest's debug_id, else its bundle_id, as sentry-cli writes them", () => {
    expect(bundleIdOf({ debug_id: 'ABCDEF00-1111-2222-3333-444455556666', bundle_id: '11111111-1111-1111-1111-111111111111' }, checksum)).toBe(
      'abcdef00-1111-2222-3333-444455556666',
    );
    expect(bundleIdOf({ bundle_id: '11111111111111111111111111111111' }, checksum)).toBe('11111111-1111-1111-1111-111111111111');
  });

  it("makes one of the checksum otherwise, the same every time (the legacy release files' bundles too)", () => {
    expect(bundleIdOf({ files: {} }, checksum)).toBe('01234567-89ab-cdef-0123-456789abcdef');
    expect(bundleIdOf(null, `release-files:${checksum}`)).toBe('01234567-89ab-cdef-0123-456789abcdef');
    expect(bundleIdOf({ debug_id: 'not an id' }, checksum)).toBe('01234567-89ab-cdef-0123-456789abcdef');
  });
});
