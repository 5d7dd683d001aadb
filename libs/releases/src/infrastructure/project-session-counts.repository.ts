import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { ProjectSessionCounts, type ProjectSessionsQuery, sessionsKey } from '../contracts/project-session-counts';
import { HOUR_MS } from '../domain/session-rollup';
import { sessionsInLastHour } from '../domain/sessions-last-hour';

/** Reads the hourly session counts: the current and the previous hour of each project, in one statement. */
@Injectable()
export class ProjectSessionCountsRepository extends ProjectSessionCounts {
  async startedInLastHour(sql: Sql, queries: readonly ProjectSessionsQuery[], now: Date): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (queries.length === 0) return counts;
    const currentHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
    const rows = await sql.query<{ n: number; current: string; previous: string }>(
      `SELECT q.n, coalesce(sum(c.started) FILTER (WHERE c.bucket = $3), 0)::text AS current,
              coalesce(sum(c.started) FILTER (WHERE c.bucket < $3), 0)::text AS previous
       FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS q (project_id, environment, n)
       LEFT JOIN releases.session_counts c ON c.project_id = q.project_id AND c.bucket >= $3::timestamptz - interval '1 hour' AND c.bucket <= $3
         AND (q.environment IS NULL OR c.environment = q.environment)
       GROUP BY q.n`,
      [queries.map((q) => q.projectId), queries.map((q) => q.environment), currentHour],
    );
    for (const row of rows) {
      counts.set(sessionsKey(queries[Number(row.n) - 1]), sessionsInLastHour(Number(row.current), Number(row.previous), now));
    }
    return counts;
  }
}
