import { AggregateRoot, DomainError } from '@faultline/kernel';
import { type IncidentEvent, IncidentEventTypes, incidentOpened, incidentResolved, incidentStatusChanged } from './incident.events';
import type { IncidentStatus, IncidentTarget } from './metric-rule';

/** A plain copy of an incident's state. */
export interface IncidentState {
  readonly id: string;
  readonly organizationId: string;
  readonly ruleId: string;
  readonly identifier: number;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly startedAt: string;
  readonly closedAt?: string;
}

/**
 * A metric alert rule's incident: opened when a trigger is first breached, then at the breached
 * trigger's level (warning or critical), moving between them as the value changes, until it
 * resolves. A resolved incident never changes again; the rule's next breach opens a new one.
 */
export class Incident extends AggregateRoot<IncidentEvent> {
  private state?: {
    id: string;
    organizationId: string;
    ruleId: string;
    identifier: number;
    title: string;
    status: IncidentStatus;
    startedAt: string;
    closedAt?: string;
  };

  static open(input: {
    id: string;
    organizationId: string;
    ruleId: string;
    identifier: number;
    title: string;
    level: 'warning' | 'critical';
    value: number;
    at: string;
  }): Incident {
    const incident = new Incident();
    const base = { incidentId: input.id, organizationId: input.organizationId, ruleId: input.ruleId, value: input.value, at: input.at };
    incident.raise(incidentOpened({ ...base, identifier: input.identifier, title: input.title }));
    incident.raise(incidentStatusChanged({ ...base, from: 'open', to: input.level }));
    return incident;
  }

  get id(): string {
    return this.current.id;
  }

  get status(): IncidentStatus {
    return this.current.status;
  }

  get startedAt(): string {
    return this.current.startedAt;
  }

  get closedAt(): string | undefined {
    return this.current.closedAt;
  }

  get snapshot(): IncidentState {
    return { ...this.current };
  }

  /**
   * Applies a decision of the trigger logic; answers whether anything moved. Staying where it is
   * raises nothing; moving a resolved incident is refused.
   */
  move(target: IncidentTarget, value: number, at: string): boolean {
    const state = this.current;
    if (target === 'unchanged' || target === state.status) return false;
    if (state.status === 'resolved') throw DomainError.conflict(`incident ${state.id} is resolved`);
    const base = { incidentId: state.id, organizationId: state.organizationId, ruleId: state.ruleId, value, at };
    if (target === 'resolved') this.raise(incidentResolved({ ...base, from: state.status }));
    else this.raise(incidentStatusChanged({ ...base, from: state.status, to: target }));
    return true;
  }

  private get current() {
    if (!this.state) throw new Error('incident has no history');
    return this.state;
  }

  protected evolve(event: IncidentEvent): void {
    switch (event.type) {
      case IncidentEventTypes.IncidentOpened:
        this.state = {
          id: event.data.incidentId,
          organizationId: event.data.organizationId,
          ruleId: event.data.ruleId,
          identifier: event.data.identifier,
          title: event.data.title,
          status: 'open',
          startedAt: event.data.at,
        };
        break;
      case IncidentEventTypes.IncidentStatusChanged:
        this.current.status = event.data.to;
        break;
      case IncidentEventTypes.IncidentResolved:
        this.current.status = 'resolved';
        this.current.closedAt = event.data.at;
        break;
    }
  }
}
