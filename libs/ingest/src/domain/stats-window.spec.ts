import { resolveStatsWindow } from './stats-window';

describe('resolveStatsWindow', () => {
  const now = 1_700_000_000;

  it('defaults to the last day at 1h', () => {
    expect(resolveStatsWindow({}, now)).toEqual({
      resolution: '1h',
      step: 3600,
      start: Math.floor((now - 86399) / 3600) * 3600,
      end: Math.floor(now / 3600) * 3600,
    });
  });

  it('picks 10s for an hour, 1d beyond a week', () => {
    expect(resolveStatsWindow({ since: String(now - 3600), until: String(now) }, now)).toMatchObject({ resolution: '10s' });
    expect(resolveStatsWindow({ since: String(now - 30 * 86400), until: String(now) }, now)).toMatchObject({ resolution: '1d' });
  });

  it('refuses bad values', () => {
    expect(resolveStatsWindow({ resolution: '5m' }, now)).toEqual({ error: 'Invalid resolution' });
    expect(resolveStatsWindow({ since: '10', until: '5' }, now)).toEqual({ error: 'since must be before until' });
    expect(resolveStatsWindow({ since: 'x' }, now)).toEqual({ error: 'since and until must be Unix timestamps' });
    expect(resolveStatsWindow({ since: '0', until: String(now), resolution: '10s' }, now)).toHaveProperty('error');
  });
});
