import { type DomainEvent, domainEvent } from '@faultline/kernel';
import type { IncidentStatus } from './metric-rule';

/** A metric alert rule's incident is event-sourced: every move of its status is one of these on `incident-<id>`. */
export const IncidentEventTypes = {
  IncidentOpened: 'alerts.IncidentOpened',
  IncidentStatusChanged: 'alerts.IncidentStatusChanged',
  IncidentResolved: 'alerts.IncidentResolved',
} as const;

export const INCIDENT_STREAM_TYPE = 'incident';
export const incidentStream = (incidentId: string): string => `incident-${incidentId}`;

type Base = {
  readonly incidentId: string;
  readonly organizationId: string;
  readonly ruleId: string;
  /** The aggregate's value that caused the move. */
  readonly value: number;
  /** ISO 8601, from the evaluating worker's clock. */
  readonly at: string;
};

export type IncidentOpenedData = Base & { readonly identifier: number; readonly title: string };
export type IncidentStatusChangedData = Base & { readonly from: IncidentStatus; readonly to: 'warning' | 'critical' };
export type IncidentResolvedData = Base & { readonly from: IncidentStatus };

type T = typeof IncidentEventTypes;
export type IncidentOpened = DomainEvent<T['IncidentOpened'], IncidentOpenedData>;
export type IncidentStatusChanged = DomainEvent<T['IncidentStatusChanged'], IncidentStatusChangedData>;
export type IncidentResolved = DomainEvent<T['IncidentResolved'], IncidentResolvedData>;
export type IncidentEvent = IncidentOpened | IncidentStatusChanged | IncidentResolved;

export const incidentOpened = (data: IncidentOpenedData): IncidentOpened => domainEvent(IncidentEventTypes.IncidentOpened, { ...data });
export const incidentStatusChanged = (data: IncidentStatusChangedData): IncidentStatusChanged =>
  domainEvent(IncidentEventTypes.IncidentStatusChanged, { ...data });
export const incidentResolved = (data: IncidentResolvedData): IncidentResolved => domainEvent(IncidentEventTypes.IncidentResolved, { ...data });

/** The status an event leaves the incident in. */
export function statusAfter(event: IncidentEvent): IncidentStatus {
  switch (event.type) {
    case IncidentEventTypes.IncidentOpened:
      return 'open';
    case IncidentEventTypes.IncidentStatusChanged:
      return event.data.to;
    case IncidentEventTypes.IncidentResolved:
      return 'resolved';
  }
}
