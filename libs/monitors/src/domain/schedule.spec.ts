import { nextScheduled, normalizeCrontab } from './schedule';

describe('schedule', () => {
  it('clamps the reference to the minute and reads a crontab in the monitor time zone', () => {
    const reference = new Date('2026-03-08T05:00:42.500Z');
    expect(nextScheduled(reference, { type: 'crontab', crontab: '* * * * *' }, 'UTC').toISOString()).toBe('2026-03-08T05:01:00.000Z');
    // 09:00 in New York on the day daylight saving time starts there is 13:00 UTC.
    expect(nextScheduled(reference, { type: 'crontab', crontab: '0 9 * * *' }, 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextScheduled(reference, { type: 'crontab', crontab: '0 9 * * *' }, 'Europe/Vienna').toISOString()).toBe('2026-03-08T08:00:00.000Z');
  });

  it('adds intervals from the clamped reference; months clamp to the last day', () => {
    const reference = new Date('2026-01-31T10:15:59.000Z');
    expect(nextScheduled(reference, { type: 'interval', interval: 10, unit: 'minute' }, 'UTC').toISOString()).toBe('2026-01-31T10:25:00.000Z');
    expect(nextScheduled(reference, { type: 'interval', interval: 2, unit: 'week' }, 'UTC').toISOString()).toBe('2026-02-14T10:15:00.000Z');
    expect(nextScheduled(reference, { type: 'interval', interval: 1, unit: 'month' }, 'UTC').toISOString()).toBe('2026-02-28T10:15:00.000Z');
    expect(nextScheduled(reference, { type: 'interval', interval: 1, unit: 'year' }, 'UTC').toISOString()).toBe('2027-01-31T10:15:00.000Z');
  });

  it('takes five-field crontabs and nicknames, and refuses the rest', () => {
    expect(normalizeCrontab(' @Daily ')).toEqual({ crontab: '0 0 * * *' });
    expect(normalizeCrontab('*/5  *  * * *')).toEqual({ crontab: '*/5 * * * *' });
    expect(normalizeCrontab('* * * * * *')).toEqual({ problem: expect.stringMatching(/five-field/) });
    expect(normalizeCrontab('61 * * * *')).toEqual({ problem: expect.stringMatching(/not parseable/) });
  });
});
