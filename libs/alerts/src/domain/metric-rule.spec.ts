import { decideIncident, describeValue, metricQueryFilter, type MetricRuleDefinition, validateMetricRule } from './metric-rule';

let next = 0;
const newId = () => String(++next);

const base = { name: 'Spike', aggregate: 'count()', timeWindow: 10, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 100, actions: [] }] };

describe('validateMetricRule', () => {
  it("normalises Sentry's body: critical first, numbered triggers and actions, defaults", () => {
    next = 0;
    const checked = validateMetricRule(
      {
        ...base,
        resolveThreshold: 10,
        triggers: [
          { label: 'warning', alertThreshold: '50', actions: [] },
          {
            label: 'critical',
            alertThreshold: 100,
            actions: [
              {
                type: 'sentry_app',
                targetType: 'sentry_app',
                sentryAppInstallationUuid: 'A1B2C3D4-0000-4000-8000-000000000000',
                settings: [{ name: 'team', value: 'ops' }],
              },
            ],
          },
        ],
      },
      newId,
    );
    expect(checked).toEqual({
      ok: {
        name: 'Spike',
        aggregate: 'count()',
        query: '',
        timeWindow: 10,
        thresholdType: 0,
        resolveThreshold: 10,
        projects: ['web'],
        environment: null,
        owner: null,
        triggers: [
          {
            id: '3',
            label: 'critical',
            alertThreshold: 100,
            actions: [
              {
                id: '2',
                type: 'sentry_app',
                targetType: 'sentry_app',
                targetIdentifier: 'a1b2c3d4-0000-4000-8000-000000000000',
                sentryAppInstallationUuid: 'a1b2c3d4-0000-4000-8000-000000000000',
                settings: [{ name: 'team', value: 'ops' }],
              },
            ],
          },
          { id: '1', label: 'warning', alertThreshold: 50, actions: [] },
        ],
      },
    });
  });

  it('keeps an environment: the worker counts only its events', () => {
    const checked = validateMetricRule({ ...base, environment: 'production' }, () => '1');
    expect('ok' in checked && checked.ok.environment).toBe('production');
  });

  it.each([
    [{ ...base, aggregate: 'avg(duration)' }, 'aggregate'],
    [{ ...base, timeWindow: 3 }, 'timeWindow'],
    [{ ...base, thresholdType: 2 }, 'thresholdType'],
    [{ ...base, projects: [] }, 'projects'],
    [{ ...base, query: 'x'.repeat(1001) }, 'query'],
    [{ ...base, environment: '' }, 'environment'],
    [{ ...base, environment: 'e'.repeat(65) }, 'environment'],
    [{ ...base, triggers: [] }, 'triggers'],
    [{ ...base, triggers: [{ label: 'warning', alertThreshold: 1 }] }, 'triggers'],
    [
      {
        ...base,
        triggers: [
          { label: 'critical', alertThreshold: 10 },
          { label: 'warning', alertThreshold: 20 },
        ],
      },
      'triggers',
    ],
    [
      {
        ...base,
        thresholdType: 1,
        triggers: [
          { label: 'critical', alertThreshold: 10 },
          { label: 'warning', alertThreshold: 5 },
        ],
      },
      'triggers',
    ],
    [{ ...base, resolveThreshold: 100 }, 'resolveThreshold'],
    [{ ...base, thresholdType: 1, resolveThreshold: 50 }, 'resolveThreshold'],
    [{ ...base, triggers: [{ label: 'critical', alertThreshold: 1, actions: [{ type: 'slack' }] }] }, 'triggers'],
    [{ ...base, triggers: [{ label: 'critical', alertThreshold: 1, actions: [{ type: 'sentry_app', sentryAppInstallationUuid: 'nope' }] }] }, 'triggers'],
  ])('refuses %j, naming %s', (input, field) => {
    expect(validateMetricRule(input as Record<string, unknown>, newId)).toEqual({ error: expect.stringContaining(field), field });
  });
});

describe('decideIncident', () => {
  const above: Pick<MetricRuleDefinition, 'thresholdType' | 'resolveThreshold' | 'triggers'> = {
    thresholdType: 0,
    resolveThreshold: 20,
    triggers: [
      { id: '1', label: 'critical', alertThreshold: 100, actions: [] },
      { id: '2', label: 'warning', alertThreshold: 50, actions: [] },
    ],
  };

  it('opens at the most severe breached trigger and moves between levels', () => {
    expect(decideIncident(above, undefined, 10)).toBe('unchanged');
    expect(decideIncident(above, undefined, 60)).toBe('warning');
    expect(decideIncident(above, undefined, 101)).toBe('critical');
    expect(decideIncident(above, 'warning', 101)).toBe('critical');
    expect(decideIncident(above, 'critical', 101)).toBe('unchanged');
    expect(decideIncident(above, 'critical', 60)).toBe('warning');
    expect(decideIncident(above, 'resolved', 60)).toBe('warning');
  });

  it('resolves only past the resolve threshold, and at once without one', () => {
    expect(decideIncident(above, 'warning', 30)).toBe('unchanged');
    expect(decideIncident(above, 'warning', 19)).toBe('resolved');
    expect(decideIncident({ ...above, resolveThreshold: null }, 'critical', 50)).toBe('resolved');
    expect(decideIncident(above, undefined, 0)).toBe('unchanged');
  });

  it('works the other way round for thresholdType below', () => {
    const below = { thresholdType: 1 as const, resolveThreshold: 80, triggers: [{ id: '1', label: 'critical' as const, alertThreshold: 10, actions: [] }] };
    expect(decideIncident(below, undefined, 5)).toBe('critical');
    expect(decideIncident(below, 'critical', 50)).toBe('unchanged');
    expect(decideIncident(below, 'critical', 81)).toBe('resolved');
  });
});

describe('describeValue', () => {
  it('says what Sentry says', () => {
    expect(describeValue('count()', 1000, 10)).toBe('1000 events in the last 10 minutes');
    expect(describeValue('count_unique(user)', 3, 60)).toBe('3 users in the last 1 hour');
    expect(describeValue('count()', 1, 1440)).toBe('1 events in the last 24 hours');
  });
});

describe('metricQueryFilter', () => {
  const filter = (key: string, values: string[], negated = false) => ({ type: 'filter' as const, key, negated, values });

  it('keeps the environments and levels a query names, levels in lower case', () => {
    expect(metricQueryFilter([filter('environment', ['prod']), filter('level', ['Error', 'fatal'])])).toEqual({
      ok: { environments: { negated: false, values: ['prod'] }, levels: { negated: false, values: ['error', 'fatal'] } },
    });
    expect(metricQueryFilter([filter('level', ['info'], true)])).toEqual({ ok: { levels: { negated: true, values: ['info'] } } });
    expect(metricQueryFilter([])).toEqual({ ok: {} });
  });

  it.each([
    [[{ type: 'text' as const }], 'free text is not supported'],
    [[filter('release', ['1.0'])], 'release is not supported'],
    [[filter('level', ['loud'])], 'level loud is not one of fatal, error, warning, info, debug'],
    [[filter('environment', ['a']), filter('environment', ['b'])], 'give environment: once'],
  ])('refuses %j', (terms, message) => {
    expect(metricQueryFilter(terms)).toEqual({ error: expect.stringContaining(message), field: 'query' });
  });
});
