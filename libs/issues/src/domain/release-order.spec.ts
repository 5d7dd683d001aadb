import { isOlderRelease, shortReleaseVersion } from './release-order';

describe('isOlderRelease', () => {
  it.each([
    ['web@1.2.3', 'web@1.10.0', true],
    ['web@2.0.0', 'web@1.10.0', false],
    ['web@2.0.0', 'web@2.0.0', false],
    ['web@2.0.0-rc.1', 'web@2.0.0', true],
    ['web@2.0.0+build.7', 'web@2.0.1+build.1', true],
    ['1.0.0', '1.0.1', true],
  ])('%s before %s: %p', (release, than, older) => {
    expect(isOlderRelease(release, than)).toBe(older);
  });

  it.each([
    ['web@1.0.0', 'api@2.0.0'],
    ['web@abc123', 'web@def456'],
    ['web@1.0', 'web@2.0.0'],
    ['latest', 'web@1.0.0'],
  ])('cannot tell %s from %s', (release, than) => {
    expect(isOlderRelease(release, than)).toBeUndefined();
  });
});

describe('shortReleaseVersion', () => {
  it.each([
    ['web@1.2.3+build.7', '1.2.3+build.7'],
    ['17642328ead24b51867165985996d04b29310337', '1764232'],
    ['web@17642328ead24b51867165985996d04b29310337', '1764232'],
    ['2024.11.2', '2024.11.2'],
    ['@scope/pkg@1.0.0', '1.0.0'],
  ])('%s shows as %s', (release, short) => {
    expect(shortReleaseVersion(release)).toBe(short);
  });
});
