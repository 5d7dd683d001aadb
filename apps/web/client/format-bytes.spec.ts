import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('reads byte counts in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(4096)).toBe('4.0 KiB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MiB');
    expect(formatBytes(25_232_932_864)).toBe('23.5 GiB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3.0 TiB');
  });
});
