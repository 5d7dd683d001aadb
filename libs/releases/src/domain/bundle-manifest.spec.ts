import fc from 'fast-check';
import { canonicalDebugId, manifestEntries } from './bundle-manifest';

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
