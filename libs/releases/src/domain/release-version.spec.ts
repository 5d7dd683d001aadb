import fc from 'fast-check';
import { releaseVersionProblem, versionInfo } from './release-version';

describe('release versions', () => {
  it('splits package and version, and shortens a commit hash, as Sentry shows them', () => {
    expect(versionInfo('shop@1.2.3')).toEqual({ package: 'shop', version: { raw: '1.2.3' }, description: '1.2.3', buildHash: null });
    expect(versionInfo('1.0')).toMatchObject({ package: null, description: '1.0' });
    const sha = 'ab'.repeat(20);
    expect(versionInfo(sha)).toMatchObject({ description: sha.slice(0, 12), buildHash: sha });
  });

  it('refuses what breaks URLs or the UI, and nothing else of a sensible length', () => {
    for (const bad of ['', ' x', 'a/b', 'a\\b', 'a\nb', '.', '..', 'Latest', 'x'.repeat(201)]) expect(releaseVersionProblem(bad)).toEqual(expect.any(String));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (version) => {
        const refused = releaseVersionProblem(version) !== undefined;
        const breaks =
          /[\r\n\t\f\v/\\]/.test(version) ||
          version !== version.trim() ||
          version.trim() === '' ||
          ['.', '..'].includes(version) ||
          version.toLowerCase() === 'latest';
        expect(refused).toBe(breaks);
      }),
    );
  });
});
