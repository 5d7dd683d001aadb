import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

const HOUR_MS = 3_600_000;

export interface FireRow {
  id: string;
  rule_id: string;
  project_id: string;
  issue_id: string;
  event_id: string;
  fired_at: Date;
  delivery_causes: string[];
}

export interface DeliveryOfCause {
  cause: string;
  guid: string;
  event_type: string;
  target_kind: string;
  target_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  created_at: Date;
  finished_at: Date | null;
}

@Injectable()
export class IssueAlertFiresRepository {
  /**
   * The action interval, durably: for each (rule, issue) candidate, records the fire unless the
   * rule fired for the issue less than its frequency ago; answers those that fire. The row lock of
   * the upsert makes concurrent batches take turns, and it commits with the events that caused it.
   */
  async claim(sql: Sql, candidates: ReadonlyArray<{ ruleId: string; issueId: string; frequencyMinutes: number }>, now: Date): Promise<Set<string>> {
    if (candidates.length === 0) return new Set();
    const sorted = [...candidates].sort((a, b) => Number(a.ruleId) - Number(b.ruleId) || Number(a.issueId) - Number(b.issueId));
    // Most candidates are inside their rule's interval: the plain read in the SELECT drops them, so
    // only those that may fire reach the upsert and its row lock (taken even when nothing changes).
    const rows = await sql.query<{ rule_id: string; issue_id: string }>(
      `INSERT INTO alerts.issue_alert_rule_issues (rule_id, issue_id, last_fired_at, quiet_until)
       SELECT c.rule_id, c.issue_id, $3::timestamptz, $3::timestamptz + make_interval(mins => c.minutes)
       FROM unnest($1::bigint[], $2::bigint[], $4::integer[]) WITH ORDINALITY AS c (rule_id, issue_id, minutes, n)
       -- A rule deleted since this process cached it does not fire (and does not fail the batch).
       JOIN alerts.issue_alert_rules r ON r.id = c.rule_id
       WHERE NOT EXISTS (SELECT 1 FROM alerts.issue_alert_rule_issues s WHERE s.rule_id = c.rule_id AND s.issue_id = c.issue_id AND s.quiet_until > $3)
       ORDER BY c.n
       ON CONFLICT (rule_id, issue_id) DO UPDATE SET last_fired_at = EXCLUDED.last_fired_at, quiet_until = EXCLUDED.quiet_until
         WHERE issue_alert_rule_issues.quiet_until <= EXCLUDED.last_fired_at
       RETURNING rule_id, issue_id`,
      [sorted.map((c) => c.ruleId), sorted.map((c) => c.issueId), now, sorted.map((c) => c.frequencyMinutes)],
    );
    return new Set(rows.map((row) => `${row.rule_id}|${row.issue_id}`));
  }

  async record(
    sql: Sql,
    fires: ReadonlyArray<{ ruleId: string; projectId: string; issueId: string; eventId: string; causes: string[] }>,
    now: Date,
  ): Promise<void> {
    if (fires.length === 0) return;
    await sql.execute(
      `INSERT INTO alerts.issue_alert_fires (rule_id, project_id, issue_id, event_id, fired_at, delivery_causes)
       SELECT rule_id, project_id, issue_id, event_id, $5::timestamptz, ARRAY(SELECT json_array_elements_text(causes))
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $6::json[]) AS f (rule_id, project_id, issue_id, event_id, causes)`,
      [
        fires.map((f) => f.ruleId),
        fires.map((f) => f.projectId),
        fires.map((f) => f.issueId),
        fires.map((f) => f.eventId),
        now,
        fires.map((f) => JSON.stringify(f.causes)),
      ],
    );
  }

  /** A rule's fires, newest first. */
  async list(sql: Sql, ruleId: string, offset: number, limit: number): Promise<FireRow[]> {
    return sql.query<FireRow>(
      `SELECT id, rule_id, project_id, issue_id, event_id, fired_at, delivery_causes FROM alerts.issue_alert_fires WHERE rule_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`,
      [ruleId, offset, limit],
    );
  }

  /** When each of these rules last fired (rules that never fired are absent). */
  async lastFired(sql: Sql, ruleIds: readonly string[]): Promise<Map<string, Date>> {
    if (ruleIds.length === 0) return new Map();
    const rows = await sql.query<{ rule_id: string; fired_at: Date }>(
      `SELECT r.id AS rule_id, f.fired_at
       FROM unnest($1::bigint[]) AS r (id)
       CROSS JOIN LATERAL (SELECT fired_at FROM alerts.issue_alert_fires WHERE rule_id = r.id ORDER BY id DESC LIMIT 1) f`,
      [ruleIds],
    );
    return new Map(rows.map((row) => [String(row.rule_id), new Date(row.fired_at)]));
  }

  /**
   * Sentry's rule stats: the rule's fires in [start, end) counted per hour, every hour from the
   * one `start` falls in to the one `end` falls in present (zero when it did not fire).
   */
  async hourlyCounts(sql: Sql, ruleId: string, start: Date, end: Date): Promise<Array<{ date: Date; count: number }>> {
    const hour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
    const rows = await sql.query<{ hour: Date; count: number }>(
      `SELECT h.hour, count(f.id)::int AS count
       FROM generate_series($2::timestamptz, $3::timestamptz, interval '1 hour') AS h (hour)
       LEFT JOIN alerts.issue_alert_fires f ON f.rule_id = $1
         AND f.fired_at >= greatest(h.hour, $4::timestamptz) AND f.fired_at < least(h.hour + interval '1 hour', $5::timestamptz)
       GROUP BY h.hour ORDER BY h.hour`,
      [ruleId, hour(start), hour(end), start, end],
    );
    return rows.map((row) => ({ date: new Date(row.hour), count: row.count }));
  }

  /** Sentry's rule group history: per issue, how often the rule fired for it and when last. */
  async groupHistory(sql: Sql, ruleId: string, since: Date, until: Date, offset: number, limit: number) {
    return sql.query<{
      issue_id: string;
      count: number;
      last_triggered: Date;
      event_id: string;
      short_id: string;
      title: string;
      culprit: string;
      level: string;
      status: string;
    }>(
      `SELECT f.issue_id, f.count, f.last_triggered, f.event_id, i.short_id, i.title, i.culprit, i.level, i.status
       FROM (SELECT issue_id, count(*)::int AS count, max(fired_at) AS last_triggered, (array_agg(event_id ORDER BY id DESC))[1] AS event_id
             FROM alerts.issue_alert_fires WHERE rule_id = $1 AND fired_at >= $2 AND fired_at <= $3 GROUP BY issue_id) f
       JOIN issues.issue_directory i ON i.id = f.issue_id
       ORDER BY f.count DESC, f.last_triggered DESC, f.issue_id OFFSET $4 LIMIT $5`,
      [ruleId, since, until, offset, limit],
    );
  }

  /** The webhook deliveries queued for these causes, with where they stand now. */
  async deliveries(sql: Sql, causes: readonly string[]): Promise<DeliveryOfCause[]> {
    if (causes.length === 0) return [];
    return sql.query<DeliveryOfCause>(
      `SELECT cause, guid, event_type, target_kind, target_id, status, attempts, last_status_code, created_at, finished_at
       FROM webhooks.delivery_log WHERE cause = ANY($1::text[]) AND cause LIKE '%alert:%' ORDER BY id`,
      [[...new Set(causes)]],
    );
  }
}
