import { Injectable } from '@nestjs/common';
import { AggregateStreams, type Decided, EventRecorder, EventStore } from '@faultline/event-store';
import type { EventMetadata, RecordedEvent } from '@faultline/kernel';
import type { Sql, Transaction } from '@faultline/platform';
import { Incident, type IncidentEvent, INCIDENT_STREAM_TYPE, incidentStream, type IncidentStatus, type MetricAlertIncidentView } from '../domain';

export interface IncidentRow {
  id: string;
  organization_id: string;
  identifier: number;
  rule_id: string;
  title: string;
  status: IncidentStatus;
  date_started: Date;
  date_detected: Date;
  date_closed: Date | null;
}

export interface ActivityRow {
  id: string;
  incident_id: string;
  event_id: string;
  previous_status: IncidentStatus | null;
  status: IncidentStatus;
  value: number;
  at: Date;
  delivery_causes: string[];
}

const COLUMNS = 'id, organization_id, identifier, rule_id, title, status, date_started, date_detected, date_closed';

export function incidentView(row: IncidentRow): MetricAlertIncidentView {
  return {
    id: String(row.id),
    identifier: row.identifier,
    organizationId: String(row.organization_id),
    title: row.title,
    status: row.status,
    dateStarted: new Date(row.date_started).toISOString(),
    dateDetected: new Date(row.date_detected).toISOString(),
    dateClosed: row.date_closed ? new Date(row.date_closed).toISOString() : null,
  };
}

/**
 * The incidents table is the read model of the `incident-<id>` streams, kept in the same transaction;
 * the streams are appended to through the shared load–decide–append step.
 */
@Injectable()
export class IncidentsRepository {
  private readonly streams: AggregateStreams<Incident, IncidentEvent>;

  constructor(eventStore: EventStore, recorder: EventRecorder) {
    this.streams = new AggregateStreams(eventStore, recorder, {
      streamType: INCIDENT_STREAM_TYPE,
      rebuild: (history) => new Incident().loadFromHistory(history),
    });
  }

  /** Starts the stream of an incident just opened. */
  async create(tx: Transaction, incident: Incident, metadata?: EventMetadata): Promise<RecordedEvent[]> {
    return this.streams.append(tx, incidentStream(incident.id), incident, metadata);
  }

  /** Decides on an incident (see AggregateStreams.decide); null if it has no stream. */
  async decide<R>(tx: Transaction, incidentId: string, decide: (incident: Incident) => R, metadata?: EventMetadata): Promise<Decided<Incident, R> | null> {
    return this.streams.decide(tx, incidentStream(incidentId), decide, { metadata });
  }

  /** A new incident's id and its organization-wide identifier (Sentry's `identifier`). */
  async allocate(sql: Sql, organizationId: string): Promise<{ id: string; identifier: number }> {
    const [{ id }] = await sql.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('alerts.metric_alert_incidents', 'id'))::text AS id`);
    const [{ last_identifier: identifier }] = await sql.query<{ last_identifier: number }>(
      `INSERT INTO alerts.metric_alert_incident_counters (organization_id, last_identifier) VALUES ($1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET last_identifier = metric_alert_incident_counters.last_identifier + 1 RETURNING last_identifier`,
      [organizationId],
    );
    return { id, identifier };
  }

  async insert(
    sql: Sql,
    row: { id: string; organizationId: string; identifier: number; ruleId: string; title: string; status: IncidentStatus; at: Date },
  ): Promise<void> {
    await sql.execute(
      `INSERT INTO alerts.metric_alert_incidents (id, organization_id, identifier, rule_id, title, status, date_started, date_detected)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [row.id, row.organizationId, row.identifier, row.ruleId, row.title, row.status, row.at],
    );
  }

  async setStatus(sql: Sql, id: string, status: IncidentStatus, closedAt: Date | null): Promise<void> {
    await sql.execute(`UPDATE alerts.metric_alert_incidents SET status = $2, date_closed = $3 WHERE id = $1`, [id, status, closedAt]);
  }

  async addActivity(
    sql: Sql,
    rows: ReadonlyArray<{
      incidentId: string;
      eventId: string;
      previousStatus: IncidentStatus | null;
      status: IncidentStatus;
      value: number;
      at: Date;
      causes: string[];
    }>,
  ): Promise<void> {
    for (const row of rows) {
      await sql.execute(
        `INSERT INTO alerts.metric_alert_incident_activity (incident_id, event_id, previous_status, status, value, at, delivery_causes) VALUES ($1, $2, $3, $4, $5, $6, $7::text[])`,
        [row.incidentId, row.eventId, row.previousStatus, row.status, row.value, row.at, row.causes],
      );
    }
  }

  /** The active (not resolved) incidents of these rules. */
  async activeOf(sql: Sql, ruleIds: readonly string[]): Promise<IncidentRow[]> {
    return sql.query<IncidentRow>(`SELECT ${COLUMNS} FROM alerts.metric_alert_incidents WHERE rule_id = ANY($1::bigint[]) AND status <> 'resolved'`, [ruleIds]);
  }

  async find(sql: Sql, organizationId: string, identifier: string): Promise<IncidentRow | undefined> {
    if (!/^\d{1,9}$/.test(identifier)) return undefined;
    const [row] = await sql.query<IncidentRow>(`SELECT ${COLUMNS} FROM alerts.metric_alert_incidents WHERE organization_id = $1 AND identifier = $2`, [
      organizationId,
      identifier,
    ]);
    return row;
  }

  async list(sql: Sql, organizationId: string, filter: { ruleId?: string; status?: 'open' | 'closed' }, offset: number, limit: number): Promise<IncidentRow[]> {
    const where = ['organization_id = $1'];
    const params: unknown[] = [organizationId];
    if (filter.ruleId) {
      params.push(filter.ruleId);
      where.push(`rule_id = $${params.length}`);
    }
    if (filter.status === 'open') where.push(`status <> 'resolved'`);
    if (filter.status === 'closed') where.push(`status = 'resolved'`);
    params.push(offset, limit);
    return sql.query<IncidentRow>(
      `SELECT ${COLUMNS} FROM alerts.metric_alert_incidents WHERE ${where.join(' AND ')} ORDER BY id DESC OFFSET $${params.length - 1} LIMIT $${params.length}`,
      params,
    );
  }

  async activity(sql: Sql, incidentId: string): Promise<ActivityRow[]> {
    return sql.query<ActivityRow>(
      `SELECT id, incident_id, event_id, previous_status, status, value, at, delivery_causes FROM alerts.metric_alert_incident_activity WHERE incident_id = $1 ORDER BY id`,
      [incidentId],
    );
  }
}
