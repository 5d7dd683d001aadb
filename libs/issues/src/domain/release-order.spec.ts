import { isOlderRelease, latestRelease, shortReleaseVersion } from './release-order';

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

describe('latestRelease', () => {
  it('takes the highest version when the newest releases are semantic versions of one package', () => {
    expect(latestRelease(['web@1.0.0', 'web@1.1.0', 'web@0.9.0'])).toBe('web@1.1.0');
    expect(latestRelease(['2.0.0-rc.1', '1.9.0'])).toBe('2.0.0-rc.1');
    const sampled = Array.from({ length: 10 }, (_, patch) => `web@1.0.${patch}`);
    expect(latestRelease([...sampled, 'nightly-42', 'web@3.0.0'])).toBe('web@3.0.0');
  });

  it('takes the newest otherwise', () => {
    expect(latestRelease(['abc123', 'web@2.0.0'])).toBe('abc123');
    expect(latestRelease(['web@1.0.0', 'api@2.0.0'])).toBe('web@1.0.0');
    expect(latestRelease(['web@1.0.0', 'web@1.1.0', 'nightly-42'])).toBe('web@1.0.0');
    expect(latestRelease([])).toBeUndefined();
  });
});
