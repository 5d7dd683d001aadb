import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

/** Events and distinct users per issue and minute, as alert rules read them. */
@Injectable()
export class AlertCountsRepository {
  /** In the ingesting transaction; rows in key order so concurrent batches cannot deadlock. */
  async addEvents(sql: Sql, rows: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; events: number }>): Promise<void> {
    if (rows.length === 0) return;
    await sql.execute(
      `INSERT INTO alert_issue_minutes (issue_id, bucket, project_id, events)
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $4::integer[]) ORDER BY 1, 2
       ON CONFLICT (issue_id, bucket) DO UPDATE SET events = alert_issue_minutes.events + EXCLUDED.events`,
      [rows.map((r) => r.issueId), rows.map((r) => r.bucket), rows.map((r) => r.projectId), rows.map((r) => r.events)],
    );
  }

  async addUsers(sql: Sql, rows: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; user: string }>): Promise<void> {
    if (rows.length === 0) return;
    await sql.execute(
      `INSERT INTO alert_issue_minute_users (issue_id, bucket, user_tag, project_id)
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::bigint[]) ORDER BY 1, 2, 3
       ON CONFLICT DO NOTHING`,
      [rows.map((r) => r.issueId), rows.map((r) => r.bucket), rows.map((r) => r.user), rows.map((r) => r.projectId)],
    );
  }

  /** Events per issue in each window ending at `now` (windows in seconds); one statement. */
  async eventsIn(sql: Sql, issueIds: readonly string[], windows: readonly number[], now: Date): Promise<Map<string, number>> {
    const rows = await sql.query<{ issue_id: string; seconds: number; n: number }>(
      `SELECT c.issue_id, w.seconds, sum(c.events)::int AS n
       FROM unnest($2::integer[]) AS w (seconds)
       JOIN alert_issue_minutes c ON c.issue_id = ANY($1::bigint[]) AND c.bucket > $3::timestamptz - make_interval(secs => w.seconds)
       GROUP BY c.issue_id, w.seconds`,
      [issueIds, windows, now],
    );
    return new Map(rows.map((row) => [`${row.issue_id}|${row.seconds}`, row.n]));
  }

  async usersIn(sql: Sql, issueIds: readonly string[], windows: readonly number[], now: Date): Promise<Map<string, number>> {
    const rows = await sql.query<{ issue_id: string; seconds: number; n: number }>(
      `SELECT c.issue_id, w.seconds, count(DISTINCT c.user_tag)::int AS n
       FROM unnest($2::integer[]) AS w (seconds)
       JOIN alert_issue_minute_users c ON c.issue_id = ANY($1::bigint[]) AND c.bucket > $3::timestamptz - make_interval(secs => w.seconds)
       GROUP BY c.issue_id, w.seconds`,
      [issueIds, windows, now],
    );
    return new Map(rows.map((row) => [`${row.issue_id}|${row.seconds}`, row.n]));
  }

  /** The value of each metric rule's aggregate over its projects and window ending at `now`; one statement per batch of rules. */
  async metricValues(sql: Sql, rules: ReadonlyArray<{ id: string; projectIds: readonly string[]; aggregate: string; timeWindow: number }>, now: Date): Promise<Map<string, number>> {
    if (rules.length === 0) return new Map();
    const ruleIds: string[] = [];
    const projectIds: string[] = [];
    const users: boolean[] = [];
    const windows: number[] = [];
    for (const rule of rules) {
      for (const projectId of rule.projectIds) {
        ruleIds.push(rule.id);
        projectIds.push(projectId);
        users.push(rule.aggregate === 'count_unique(user)');
        windows.push(rule.timeWindow * 60);
      }
    }
    const rows = await sql.query<{ rule_id: string; value: number }>(
      `WITH r AS (
         SELECT rule_id, array_agg(project_id) AS projects, bool_or(users) AS users, max(seconds) AS seconds
         FROM unnest($1::bigint[], $2::bigint[], $3::boolean[], $4::integer[]) AS r (rule_id, project_id, users, seconds)
         GROUP BY rule_id)
       SELECT r.rule_id,
              CASE WHEN r.users
                THEN (SELECT count(DISTINCT u.user_tag) FROM alert_issue_minute_users u
                      WHERE u.project_id = ANY(r.projects) AND u.bucket > $5::timestamptz - make_interval(secs => r.seconds) AND u.bucket <= $5::timestamptz)
                ELSE (SELECT coalesce(sum(c.events), 0) FROM alert_issue_minutes c
                      WHERE c.project_id = ANY(r.projects) AND c.bucket > $5::timestamptz - make_interval(secs => r.seconds) AND c.bucket <= $5::timestamptz)
              END::float8 AS value
       FROM r`,
      [ruleIds, projectIds, users, windows, now],
    );
    return new Map(rows.map((row) => [String(row.rule_id), Number(row.value)]));
  }

  /** Drops minutes older than the longest window any rule reads; a bounded batch per call. */
  async prune(sql: Sql, before: Date, limit: number): Promise<number> {
    const events = await sql.query(
      `DELETE FROM alert_issue_minutes WHERE (issue_id, bucket) IN (SELECT issue_id, bucket FROM alert_issue_minutes WHERE bucket < $1 LIMIT $2) RETURNING 1`,
      [before, limit],
    );
    const users = await sql.query(
      `DELETE FROM alert_issue_minute_users WHERE (issue_id, bucket, user_tag) IN (SELECT issue_id, bucket, user_tag FROM alert_issue_minute_users WHERE bucket < $1 LIMIT $2) RETURNING 1`,
      [before, limit],
    );
    return events.length + users.length;
  }
}
