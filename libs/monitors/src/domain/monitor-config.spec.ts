import { defineMonitor } from './monitor-definition';
import { apiMonitorConfig, sdkMonitorConfig } from './monitor-config';

describe('monitor configuration', () => {
  it("reads the SDKs' monitor_config and the API's config into one shape", () => {
    expect(sdkMonitorConfig({ schedule: { type: 'interval', value: 10, unit: 'minute' }, checkin_margin: 2 })).toEqual({
      ok: {
        schedule_type: 'interval',
        schedule: [10, 'minute'],
        checkin_margin: 2,
        max_runtime: null,
        timezone: 'UTC',
        failure_issue_threshold: null,
        recovery_threshold: null,
      },
    });
    expect(apiMonitorConfig({ schedule: '@hourly', timezone: 'Europe/Vienna', max_runtime: 5 })).toMatchObject({
      ok: { schedule_type: 'crontab', schedule: '0 * * * *', timezone: 'Europe/Vienna', max_runtime: 5 },
    });
  });

  it.each([
    [{ schedule: [0, 'minute'] }, /interval must be an integer between 1/],
    [{ schedule: [1, 'fortnight'] }, /unit must be one of/],
    [{ schedule: '* * * *' }, /five-field/],
    [{ schedule: '* * * * *', timezone: 'Mars/Olympus' }, /IANA time zone/],
    [{ schedule: '* * * * *', checkin_margin: 40_321 }, /checkin_margin must be an integer between 0 and 40320/],
    [{ schedule: '* * * * *', failure_issue_threshold: 0 }, /failure_issue_threshold/],
  ])('refuses %j', (config, problem) => {
    const checked = apiMonitorConfig(config);
    expect('problem' in checked && checked.problem).toMatch(problem);
  });

  it('updates the given fields of a monitor; a new schedule takes the type its shape says', () => {
    const created = defineMonitor({ name: 'Nightly Report', config: { schedule: '0 2 * * *' } });
    if (!('ok' in created)) throw new Error(created.problem);
    expect(created.ok).toMatchObject({ slug: 'nightly-report', status: 'active', isMuted: false });
    const changed = defineMonitor({ config: { schedule: [2, 'hour'] }, isMuted: true }, created.ok);
    expect(changed).toMatchObject({ ok: { name: 'Nightly Report', isMuted: true, config: { schedule_type: 'interval', schedule: [2, 'hour'] } } });
    expect(defineMonitor({ slug: '123' }, created.ok)).toEqual({ problem: expect.stringMatching(/slug/) });
    expect(defineMonitor({ name: 'x' })).toEqual({ problem: 'config is required' });
  });
});
