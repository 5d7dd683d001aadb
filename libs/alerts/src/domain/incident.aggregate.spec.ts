import { DomainError } from '@faultline/kernel';
import { Incident } from './incident.aggregate';
import { IncidentEventTypes, statusAfter } from './incident.events';

const opened = () =>
  Incident.open({ id: '7', organizationId: '1', ruleId: '3', identifier: 2, title: 'Spike', level: 'critical', value: 120, at: '2026-11-22T12:00:00.000Z' });

describe('Incident', () => {
  it('opens, then stands at the breached level: two events', () => {
    const incident = opened();
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
    const history = opened().pullPendingEvents();
    const incident = new Incident().loadFromHistory(history);
    expect(incident.loadedVersion).toBe(2);
    expect(incident.move('unchanged', 120, '2026-11-22T12:01:00.000Z')).toBe(false);
    expect(incident.move('critical', 130, '2026-11-22T12:01:00.000Z')).toBe(false);
    expect(incident.move('warning', 60, '2026-11-22T12:02:00.000Z')).toBe(true);
    expect(incident.move('resolved', 1, '2026-11-22T12:03:00.000Z')).toBe(true);
    expect(incident.pullPendingEvents().map((e) => e.type)).toEqual([IncidentEventTypes.IncidentStatusChanged, IncidentEventTypes.IncidentResolved]);
    expect(incident.status).toBe('resolved');
    expect(incident.closedAt).toBe('2026-11-22T12:03:00.000Z');
    expect(() => incident.move('critical', 200, '2026-11-22T12:04:00.000Z')).toThrow(DomainError);
  });
});
