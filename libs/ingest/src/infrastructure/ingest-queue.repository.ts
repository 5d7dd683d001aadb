import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export type Outcome = 'received' | 'rejected' | 'blacklisted' | 'generated';

export interface QueuedEvent {
  id: string;
  project_id: string;
  project_slug: string;
  organization_id: string;
  event_id: string;
  received_at: Date;
  client_ip: string | null;
  payload: unknown;
  attempts: number;
}

export interface OutcomeRow {
  projectId: string;
  outcome: Outcome;
  category: string;
  quantity: number;
  reason?: string;
}

/** The durable hand-off between the SDK endpoints and the processing workers. */
@Injectable()
export class IngestQueueRepository {
  async enqueue(
    sql: Sql,
    rows: Array<{ projectId: string; projectSlug: string; organizationId: string; eventId: string; clientIp?: string; payload: unknown }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const values = rows.map((row) => {
      params.push(row.projectId, row.projectSlug, row.organizationId, row.eventId, row.clientIp ?? null, JSON.stringify(row.payload));
      const at = params.length - 6;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}::bigint, $${at + 4}, $${at + 5}, $${at + 6}::jsonb)`;
    });
    await sql.execute(
      `INSERT INTO ingest_queue (project_id, project_slug, organization_id, event_id, client_ip, payload) VALUES ${values.join(', ')}`,
      params,
    );
  }

  async recordOutcomes(sql: Sql, rows: OutcomeRow[]): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const values = rows.map((row) => {
      params.push(row.projectId, row.outcome, row.category, row.quantity, row.reason ?? null);
      const at = params.length - 5;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}, $${at + 4}::integer, $${at + 5})`;
    });
    await sql.execute(`INSERT INTO ingest_outcomes (project_id, outcome, category, quantity, reason) VALUES ${values.join(', ')}`, params);
  }

  /** Takes due events off the queue inside `tx`; other workers skip them while `tx` is open. */
  async claim(sql: Sql, limit: number): Promise<QueuedEvent[]> {
    return sql.query<QueuedEvent>(
      `DELETE FROM ingest_queue WHERE id IN (
         SELECT id FROM ingest_queue WHERE available_at <= now() ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, project_id, project_slug, organization_id, event_id, received_at, client_ip, payload, attempts`,
      [limit],
    );
  }

  /** Puts an event back after a failed attempt, later each time. */
  async retryLater(sql: Sql, event: QueuedEvent, error: string): Promise<void> {
    const delaySeconds = Math.min(3600, 2 ** Math.min(event.attempts, 12));
    await sql.execute(
      `INSERT INTO ingest_queue (project_id, project_slug, organization_id, event_id, received_at, client_ip, payload, attempts, available_at, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, now() + make_interval(secs => $9), $10)`,
      [
        event.project_id, event.project_slug, event.organization_id, event.event_id, event.received_at, event.client_ip,
        JSON.stringify(event.payload), event.attempts + 1, delaySeconds, error.slice(0, 2000),
      ],
    );
  }

  /** Takes recorded outcomes off their table to fold them into the stats rollups. */
  async claimOutcomes(sql: Sql, limit: number): Promise<Array<{ project_id: string; outcome: Outcome; quantity: number; recorded_at: Date }>> {
    return sql.query(
      `DELETE FROM ingest_outcomes WHERE id IN (
         SELECT id FROM ingest_outcomes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING project_id, outcome, quantity, recorded_at`,
      [limit],
    );
  }

  /** Counts `quantity` against the key's current window and answers the window's total. */
  async countAgainstRateLimit(sql: Sql, keyId: string, windowSeconds: number, quantity: number, now: Date): Promise<{ count: number; windowEnds: Date }> {
    const windowMs = windowSeconds * 1000;
    const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    const [row] = await sql.query<{ count: number }>(
      `INSERT INTO ingest_rate_windows (key_id, window_start, count) VALUES ($1, $2, $3)
       ON CONFLICT (key_id, window_start) DO UPDATE SET count = ingest_rate_windows.count + EXCLUDED.count
       RETURNING count`,
      [keyId, windowStart.toISOString(), quantity],
    );
    return { count: row.count, windowEnds: new Date(windowStart.getTime() + windowMs) };
  }
}
