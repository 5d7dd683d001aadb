import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

/** Events and distinct users per issue and minute, as alert rules read them. */
@Injectable()
export class AlertCountsRepository {
  /**
   * The ingestion path's one round trip: adds a batch's events and users to the per-minute counts
   * and reads, as they were before this batch, each issue's events and users in each window, its
   * first sight, and which of its rules are inside their action interval. The caller adds the batch's own events (they all fall in the newest minute,
   * inside every window); the users read include the batch's.
   */
  async recordAndRead(
    sql: Sql,
    batch: {
      events: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; events: number }>;
      users: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; user: string }>;
      /** Issues to read counts for, and the windows (in seconds) of their event and user conditions. */
      countIssues: readonly string[];
      eventWindows: readonly number[];
      userWindows: readonly number[];
      ageIssues: readonly string[];
      /** Issues whose rules' action intervals to read (the quiet (rule, issue) pairs come back). */
      ruleIssues: readonly string[];
      now: Date;
    },
  ): Promise<{ eventsBefore: Map<string, number>; users: Map<string, number>; firstSeen: Map<string, number>; quiet: Set<string> }> {
    const e = batch.events;
    const u = batch.users;
    const rows = await sql.query<{ kind: string; issue_id: string; seconds: number | null; n: string | null; first_seen: Date | null }>(
      `WITH added_events AS (
         INSERT INTO alerts.alert_issue_minutes (issue_id, bucket, project_id, events)
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $4::integer[]) ORDER BY 1, 2
         ON CONFLICT (issue_id, bucket) DO UPDATE SET events = alert_issue_minutes.events + EXCLUDED.events
         RETURNING 1),
       added_users AS (
         INSERT INTO alerts.alert_issue_minute_users (issue_id, bucket, user_tag, project_id)
         SELECT * FROM unnest($5::bigint[], $6::timestamptz[], $7::text[], $8::bigint[]) ORDER BY 1, 2, 3
         ON CONFLICT DO NOTHING
         RETURNING 1),
       windows AS (SELECT * FROM unnest($10::integer[]) AS w (seconds)),
       user_windows AS (SELECT * FROM unnest($11::integer[]) AS w (seconds)),
       counted AS (SELECT * FROM unnest($9::bigint[]) AS i (issue_id))
       SELECT 'events' AS kind, i.issue_id, w.seconds, sum(m.events)::text AS n, NULL::timestamptz AS first_seen
       FROM counted i CROSS JOIN windows w
       JOIN alerts.alert_issue_minutes m ON m.issue_id = i.issue_id AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds)
       GROUP BY i.issue_id, w.seconds
       UNION ALL
       SELECT 'users', x.issue_id, x.seconds, count(*)::text, NULL
       FROM (
         SELECT i.issue_id, w.seconds, m.user_tag FROM counted i CROSS JOIN user_windows w
         JOIN alerts.alert_issue_minute_users m ON m.issue_id = i.issue_id AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds)
         UNION
         SELECT b.issue_id, w.seconds, b.user_tag FROM unnest($5::bigint[], $7::text[]) AS b (issue_id, user_tag) CROSS JOIN user_windows w
       ) x
       GROUP BY x.issue_id, x.seconds
       UNION ALL
       SELECT 'age', id, NULL, NULL, first_seen FROM issues.issue_directory WHERE id = ANY($13::bigint[])
       UNION ALL
       SELECT 'quiet', issue_id, NULL, rule_id::text, NULL FROM alerts.issue_alert_rule_issues WHERE issue_id = ANY($14::bigint[]) AND quiet_until > $12
       UNION ALL
       SELECT 'done', NULL, NULL, ((SELECT count(*) FROM added_events) + (SELECT count(*) FROM added_users))::text, NULL`,
      [
        e.map((r) => r.issueId),
        e.map((r) => r.bucket),
        e.map((r) => r.projectId),
        e.map((r) => r.events),
        u.map((r) => r.issueId),
        u.map((r) => r.bucket),
        u.map((r) => r.user),
        u.map((r) => r.projectId),
        batch.countIssues,
        batch.eventWindows,
        batch.userWindows,
        batch.now,
        batch.ageIssues,
        batch.ruleIssues,
      ],
    );
    const eventsBefore = new Map<string, number>();
    const users = new Map<string, number>();
    const firstSeen = new Map<string, number>();
    const quiet = new Set<string>();
    for (const row of rows) {
      if (row.kind === 'events') eventsBefore.set(`${row.issue_id}|${row.seconds}`, Number(row.n));
      else if (row.kind === 'users') users.set(`${row.issue_id}|${row.seconds}`, Number(row.n));
      else if (row.kind === 'age') firstSeen.set(String(row.issue_id), new Date(row.first_seen as Date).getTime());
      else if (row.kind === 'quiet') quiet.add(`${row.n}|${row.issue_id}`);
    }
    return { eventsBefore, users, firstSeen, quiet };
  }

  /** The value of each metric rule's aggregate over its projects and window ending at `now`; one statement per batch of rules. */
  async metricValues(
    sql: Sql,
    rules: ReadonlyArray<{ id: string; projectIds: readonly string[]; aggregate: string; timeWindow: number }>,
    now: Date,
  ): Promise<Map<string, number>> {
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
                THEN (SELECT count(DISTINCT u.user_tag) FROM alerts.alert_issue_minute_users u
                      WHERE u.project_id = ANY(r.projects) AND u.bucket > $5::timestamptz - make_interval(secs => r.seconds) AND u.bucket <= $5::timestamptz)
                ELSE (SELECT coalesce(sum(c.events), 0) FROM alerts.alert_issue_minutes c
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
      `DELETE FROM alerts.alert_issue_minutes WHERE (issue_id, bucket) IN (SELECT issue_id, bucket FROM alerts.alert_issue_minutes WHERE bucket < $1 LIMIT $2) RETURNING 1`,
      [before, limit],
    );
    const users = await sql.query(
      `DELETE FROM alerts.alert_issue_minute_users WHERE (issue_id, bucket, user_tag) IN (SELECT issue_id, bucket, user_tag FROM alerts.alert_issue_minute_users WHERE bucket < $1 LIMIT $2) RETURNING 1`,
      [before, limit],
    );
    return events.length + users.length;
  }
}
