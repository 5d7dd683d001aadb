import { Injectable } from '@nestjs/common';
import { DAY_MS, type Sql } from '@faultline/platform';
import type { MetricQueryFilter } from '../domain';

/** What the rules read of an issue: its first sight (ms), times seen (this batch's events included) and assignee. */
export interface IssueState {
  readonly firstSeen: number;
  readonly timesSeen: number;
  readonly assignee: { readonly type: 'user' | 'team'; readonly id: string } | null;
}

/** The key of a count read: an issue's in a window, in one environment or in all (null). */
export const countKey = (issueId: string, seconds: number, environment: string | null): string =>
  environment === null ? `${issueId}|${seconds}` : `${issueId}|${seconds}|${environment}`;

/**
 * The start of the longest window a read spans, passed as a constant: with it the planner reads
 * only the partitions of the days the windows span (the bound each window computes in the query
 * prunes none, and every day more costs planning time on the ingestion path).
 */
const since = (now: Date, windowsSeconds: readonly number[]): Date => new Date(now.getTime() - Math.max(0, ...windowsSeconds) * 1000);
/** A bound past the newest minute counted (minutes are the processing clock's), so the days made ahead are not planned either. */
const until = (now: Date): Date => new Date(now.getTime() + DAY_MS);

/** Events and distinct users per issue, minute and environment, as alert rules read them. */
@Injectable()
export class AlertCountsRepository {
  /**
   * The ingestion path's one round trip: adds a batch's events and users to the per-minute counts
   * (per environment) and reads, as they were before this batch, each issue's events and users in
   * each window (in all environments, and in each environment the batch names for it), the issue's
   * first sight, times seen and assignee, and which of its rules are inside their action interval.
   * The caller adds the batch's own events (they all fall in the newest minute, inside every
   * window); the users read include the batch's.
   */
  async recordAndRead(
    sql: Sql,
    batch: {
      events: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; environment: string; level: string; events: number }>;
      users: ReadonlyArray<{ issueId: string; projectId: string; bucket: Date; environment: string; level: string; user: string }>;
      /** Issues to read counts for, and the windows (in seconds) of their event and user conditions. */
      countIssues: readonly string[];
      /** The (issue, environment) pairs to read counts for as well, for rules with an environment. */
      countEnvironments: ReadonlyArray<{ issueId: string; environment: string }>;
      eventWindows: readonly number[];
      userWindows: readonly number[];
      /** Issues whose first sight, times seen and assignee to read. */
      stateIssues: readonly string[];
      /** Issues whose rules' action intervals to read (the quiet (rule, issue) pairs come back). */
      ruleIssues: readonly string[];
      now: Date;
    },
  ): Promise<{ eventsBefore: Map<string, number>; users: Map<string, number>; issues: Map<string, IssueState>; quiet: Set<string> }> {
    const e = batch.events;
    const u = batch.users;
    const c = batch.countEnvironments;
    const rows = await sql.query<{
      kind: string;
      issue_id: string;
      seconds: number | null;
      n: string | null;
      environment: string | null;
      first_seen: Date | null;
      times_seen: string | null;
      assignee: { type: 'user' | 'team'; id: string } | null;
    }>(
      `WITH added_events AS (
         INSERT INTO alerts.alert_issue_minutes (issue_id, bucket, project_id, environment, level, events)
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $15::text[], $19::text[], $4::integer[]) ORDER BY 1, 2, 4, 5
         ON CONFLICT (issue_id, bucket, environment, level) DO UPDATE SET events = alert_issue_minutes.events + EXCLUDED.events
         RETURNING 1),
       added_users AS (
         INSERT INTO alerts.alert_issue_minute_users (issue_id, bucket, user_tag, project_id, environment, level)
         SELECT * FROM unnest($5::bigint[], $6::timestamptz[], $7::text[], $8::bigint[], $16::text[], $20::text[]) ORDER BY 1, 2, 3, 5, 6
         ON CONFLICT DO NOTHING
         RETURNING 1),
       windows AS (SELECT * FROM unnest($10::integer[]) AS w (seconds)),
       user_windows AS (SELECT * FROM unnest($11::integer[]) AS w (seconds)),
       counted AS (SELECT * FROM unnest($9::bigint[]) AS i (issue_id)),
       counted_envs AS (SELECT * FROM unnest($17::bigint[], $18::text[]) AS c (issue_id, environment)),
       batch_users AS (SELECT * FROM unnest($5::bigint[], $7::text[], $16::text[]) AS b (issue_id, user_tag, environment))
       SELECT 'events' AS kind, i.issue_id, w.seconds, sum(m.events)::text AS n, NULL::text AS environment,
              NULL::timestamptz AS first_seen, NULL::text AS times_seen, NULL::jsonb AS assignee
       FROM counted i CROSS JOIN windows w
       JOIN alerts.alert_issue_minutes m ON m.issue_id = i.issue_id AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds) AND m.bucket > $21::timestamptz AND m.bucket < $22::timestamptz
       GROUP BY i.issue_id, w.seconds
       UNION ALL
       SELECT 'events', c.issue_id, w.seconds, sum(m.events)::text, c.environment, NULL, NULL, NULL
       FROM counted_envs c CROSS JOIN windows w
       JOIN alerts.alert_issue_minutes m ON m.issue_id = c.issue_id AND m.environment = c.environment
         AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds) AND m.bucket > $21::timestamptz AND m.bucket < $22::timestamptz
       GROUP BY c.issue_id, c.environment, w.seconds
       UNION ALL
       SELECT 'users', x.issue_id, x.seconds, count(DISTINCT x.user_tag)::text, NULL, NULL, NULL, NULL
       FROM (
         SELECT i.issue_id, w.seconds, m.user_tag FROM counted i CROSS JOIN user_windows w
         JOIN alerts.alert_issue_minute_users m ON m.issue_id = i.issue_id AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds) AND m.bucket > $21::timestamptz AND m.bucket < $22::timestamptz
         UNION ALL
         SELECT b.issue_id, w.seconds, b.user_tag FROM batch_users b CROSS JOIN user_windows w
       ) x
       GROUP BY x.issue_id, x.seconds
       UNION ALL
       SELECT 'users', x.issue_id, x.seconds, count(DISTINCT x.user_tag)::text, x.environment, NULL, NULL, NULL
       FROM (
         SELECT c.issue_id, c.environment, w.seconds, m.user_tag FROM counted_envs c CROSS JOIN user_windows w
         JOIN alerts.alert_issue_minute_users m ON m.issue_id = c.issue_id AND m.environment = c.environment
           AND m.bucket > $12::timestamptz - make_interval(secs => w.seconds) AND m.bucket > $21::timestamptz AND m.bucket < $22::timestamptz
         UNION ALL
         SELECT b.issue_id, b.environment, w.seconds, b.user_tag FROM batch_users b CROSS JOIN user_windows w
       ) x
       GROUP BY x.issue_id, x.environment, x.seconds
       UNION ALL
       SELECT 'issue', id, NULL, NULL, NULL, first_seen, times_seen::text, assignee FROM issues.issue_directory WHERE id = ANY($13::bigint[])
       UNION ALL
       SELECT 'quiet', issue_id, NULL, rule_id::text, NULL, NULL, NULL, NULL FROM alerts.issue_alert_rule_issues WHERE issue_id = ANY($14::bigint[]) AND quiet_until > $12
       UNION ALL
       SELECT 'done', NULL, NULL, ((SELECT count(*) FROM added_events) + (SELECT count(*) FROM added_users))::text, NULL, NULL, NULL, NULL`,
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
        batch.stateIssues,
        batch.ruleIssues,
        e.map((r) => r.environment),
        u.map((r) => r.environment),
        c.map((r) => r.issueId),
        c.map((r) => r.environment),
        e.map((r) => r.level),
        u.map((r) => r.level),
        since(batch.now, [...batch.eventWindows, ...batch.userWindows]),
        until(batch.now),
      ],
    );
    const eventsBefore = new Map<string, number>();
    const users = new Map<string, number>();
    const issues = new Map<string, IssueState>();
    const quiet = new Set<string>();
    for (const row of rows) {
      const key = countKey(String(row.issue_id), Number(row.seconds), row.environment);
      if (row.kind === 'events') eventsBefore.set(key, Number(row.n));
      else if (row.kind === 'users') users.set(key, Number(row.n));
      else if (row.kind === 'issue') {
        issues.set(String(row.issue_id), {
          firstSeen: new Date(row.first_seen as Date).getTime(),
          timesSeen: Number(row.times_seen),
          assignee: row.assignee ? { type: row.assignee.type, id: String(row.assignee.id) } : null,
        });
      } else if (row.kind === 'quiet') quiet.add(`${row.n}|${row.issue_id}`);
    }
    return { eventsBefore, users, issues, quiet };
  }

  /**
   * The value of each metric rule's aggregate over its projects and window ending at `now`, in its
   * environment and the environments and levels its query keeps; one statement per batch of rules.
   */
  async metricValues(
    sql: Sql,
    rules: ReadonlyArray<{
      id: string;
      projectIds: readonly string[];
      aggregate: string;
      timeWindow: number;
      environment: string | null;
      filter: MetricQueryFilter;
    }>,
    now: Date,
  ): Promise<Map<string, number>> {
    if (rules.length === 0) return new Map();
    const rows = await sql.query<{ rule_id: string; value: number }>(
      `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (rule_id bigint, projects bigint[], users boolean, seconds integer, environment text,
           environments text[], environments_negated boolean, levels text[], levels_negated boolean))
       SELECT r.rule_id,
              CASE WHEN r.users
                THEN (SELECT count(DISTINCT u.user_tag) FROM alerts.alert_issue_minute_users u
                      WHERE u.project_id = ANY(r.projects) AND u.bucket > $2::timestamptz - make_interval(secs => r.seconds) AND u.bucket <= $2::timestamptz AND u.bucket > $3::timestamptz
                        AND (r.environment IS NULL OR u.environment = r.environment)
                        AND (r.environments IS NULL OR (u.environment = ANY(r.environments)) <> r.environments_negated)
                        AND (r.levels IS NULL OR (u.level = ANY(r.levels)) <> r.levels_negated))
                ELSE (SELECT coalesce(sum(c.events), 0) FROM alerts.alert_issue_minutes c
                      WHERE c.project_id = ANY(r.projects) AND c.bucket > $2::timestamptz - make_interval(secs => r.seconds) AND c.bucket <= $2::timestamptz AND c.bucket > $3::timestamptz
                        AND (r.environment IS NULL OR c.environment = r.environment)
                        AND (r.environments IS NULL OR (c.environment = ANY(r.environments)) <> r.environments_negated)
                        AND (r.levels IS NULL OR (c.level = ANY(r.levels)) <> r.levels_negated))
              END::float8 AS value
       FROM r`,
      [
        JSON.stringify(
          rules.map((rule) => ({
            rule_id: rule.id,
            projects: rule.projectIds,
            users: rule.aggregate === 'count_unique(user)',
            seconds: rule.timeWindow * 60,
            environment: rule.environment,
            environments: rule.filter.environments?.values ?? null,
            environments_negated: rule.filter.environments?.negated ?? false,
            levels: rule.filter.levels?.values ?? null,
            levels_negated: rule.filter.levels?.negated ?? false,
          })),
        ),
        now,
        since(
          now,
          rules.map((rule) => rule.timeWindow * 60),
        ),
      ],
    );
    return new Map(rows.map((row) => [String(row.rule_id), Number(row.value)]));
  }
}
