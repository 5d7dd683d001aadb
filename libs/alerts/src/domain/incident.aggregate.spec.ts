import { DeciderSpecification } from '@faultline/kernel/testing';
import { Incident, type IncidentState } from './incident.aggregate';
import { type IncidentEvent, IncidentEventTypes, incidentOpened, incidentResolved, incidentStatusChanged, statusAfter } from './incident.events';

const { given, creating } = DeciderSpecification.for<Incident, IncidentEvent, IncidentState>({
  fromHistory: (history) => new Incident().loadFromHistory(history),
  snapshot: (incident) => incident.snapshot,
});

const base = { incidentId: '7', organizationId: '1', ruleId: '3' };
const opened = () =>
  Incident.open({ id: '7', organizationId: '1', ruleId: '3', identifier: 2, title: 'Spike', level: 'critical', value: 120, at: '2026-11-22T12:00:00.000Z' });
const history = [
  incidentOpened({ ...base, identifier: 2, title: 'Spike', value: 120, at: '2026-11-22T12:00:00.000Z' }),
  incidentStatusChanged({ ...base, value: 120, at: '2026-11-22T12:00:00.000Z', from: 'open', to: 'critical' }),
];
const toWarning = incidentStatusChanged({ ...base, value: 60, at: '2026-11-22T12:02:00.000Z', from: 'critical', to: 'warning' });
const resolved = incidentResolved({ ...base, value: 1, at: '2026-11-22T12:03:00.000Z', from: 'warning' });

describe('Incident', () => {
  it('opens, then stands at the breached level: two events', () => {
    const incident = creating(opened).then(history);
    expect(incident.peekPendingEvents().map((e) => [e.type, statusAfter(e)])).toEqual([
      [IncidentEventTypes.IncidentOpened, 'open'],
      [IncidentEventTypes.IncidentStatusChanged, 'critical'],
    ]);
    expect(incident.status).toBe('critical');
    expect(incident.peekPendingEvents()[1].data).toEqual({
      incidentId: '7',
      organizationId: '1',
      ruleId: '3',
      value: 120,
      at: '2026-11-22T12:00:00.000Z',
      from: 'open',
      to: 'critical',
    });
  });

  it('given its history, moves to warning, then resolves, and then never changes', () => {
    const unchanged = given(...history).when((incident) => incident.move('unchanged', 120, '2026-11-22T12:01:00.000Z'));
    expect(unchanged.aggregate.loadedVersion).toBe(2);
    expect(unchanged.result).toBe(false);
    unchanged.thenNothing();
    const same = given(...history).when((incident) => incident.move('critical', 130, '2026-11-22T12:01:00.000Z'));
    expect(same.result).toBe(false);
    same.thenNothing();

    const warning = given(...history).when((incident) => incident.move('warning', 60, '2026-11-22T12:02:00.000Z'));
    expect(warning.result).toBe(true);
    warning.then([toWarning]);
    const resolving = given(...history, toWarning).when((incident) => incident.move('resolved', 1, '2026-11-22T12:03:00.000Z'));
    expect(resolving.result).toBe(true);
    const incident = resolving.then([resolved]);
    expect(incident.status).toBe('resolved');
    expect(incident.closedAt).toBe('2026-11-22T12:03:00.000Z');
    given(...history, toWarning, resolved)
      .when((resolvedIncident) => resolvedIncident.move('critical', 200, '2026-11-22T12:04:00.000Z'))
      .thenError('conflict', 'incident 7 is resolved');
  });
});
