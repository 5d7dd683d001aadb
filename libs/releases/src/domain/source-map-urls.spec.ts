import fc from 'fast-check';
import { candidateUrls, resolveSourceMapUrl, sourceMappingUrlOf } from './source-map-urls';

describe('candidateUrls', () => {
  it('tries the URL, then ~/ with its path, then shorter tails', () => {
    expect(candidateUrls('https://shop.example.com/static/js/app.min.js?v=3')).toEqual([
      'https://shop.example.com/static/js/app.min.js?v=3',
      '~/static/js/app.min.js',
      '~/js/app.min.js',
      '~/app.min.js',
    ]);
  });

  it('treats a server path like a URL path', () => {
    expect(candidateUrls('/srv/app/dist/bundle.js')).toEqual([
      '/srv/app/dist/bundle.js',
      '~/srv/app/dist/bundle.js',
      '~/app/dist/bundle.js',
      '~/dist/bundle.js',
      '~/bundle.js',
    ]);
  });

  it('answers a bounded list that starts with the file itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (file) => {
        const candidates = candidateUrls(file);
        expect(candidates[0]).toBe(file);
        expect(candidates.length).toBeLessThanOrEqual(10);
      }),
    );
  });
});

describe('resolveSourceMapUrl', () => {
  it('resolves a relative reference against the file, keeping ~/', () => {
    expect(resolveSourceMapUrl('~/static/app.js', 'app.js.map')).toBe('~/static/app.js.map');
    expect(resolveSourceMapUrl('https://cdn.example.com/a/app.js', '../maps/app.js.map')).toBe('https://cdn.example.com/maps/app.js.map');
    expect(resolveSourceMapUrl('~/app.js', 'https://cdn.example.com/app.js.map')).toBe('https://cdn.example.com/app.js.map');
  });
});

describe('sourceMappingUrlOf', () => {
  it('reads the comment at the end of a file', () => {
    expect(sourceMappingUrlOf('var a=1;\n//# sourceMappingURL=app.js.map\n')).toBe('app.js.map');
    expect(sourceMappingUrlOf('var a=1;')).toBeUndefined();
  });
});
