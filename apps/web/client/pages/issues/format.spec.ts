import { percent, shortCount, timeAgo } from './format';

describe('issue list formats', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');

  it('says how long ago, in the largest whole unit', () => {
    expect(timeAgo('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-03-10T11:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2026-03-10T09:00:00Z', now)).toBe('3 h ago');
    expect(timeAgo('2026-03-08T12:00:00Z', now)).toBe('2 d ago');
    expect(timeAgo('2025-01-10T12:00:00Z', now)).toBe('1 y ago');
    expect(timeAgo('2026-03-10T12:05:00Z', now)).toBe('just now');
    expect(timeAgo(null, now)).toBe('—');
  });

  it('shortens counts and rounds shares', () => {
    expect(shortCount('1234')).toBe('1,234');
    expect(shortCount(12_400)).toBe('12k');
    expect(shortCount(3_400_000)).toBe('3.4m');
    expect(percent(1, 3)).toBe('33%');
    expect(percent(1, 1000)).toBe('<1%');
    expect(percent(0, 0)).toBe('0%');
  });
});
