import { sessionsInLastHour } from './sessions-last-hour';

describe('sessionsInLastHour', () => {
  const hour = Date.UTC(2026, 0, 5, 10);

  it('takes all of the current hour and the part of the previous one the last hour still covers', () => {
    expect(sessionsInLastHour(30, 100, new Date(hour))).toBe(130);
    expect(sessionsInLastHour(30, 100, new Date(hour + 15 * 60_000))).toBe(105);
    expect(sessionsInLastHour(30, 100, new Date(hour + 59 * 60_000 + 59_999))).toBeCloseTo(30, 2);
  });

  it('is zero without sessions', () => {
    expect(sessionsInLastHour(0, 0, new Date(hour + 1))).toBe(0);
  });
});
