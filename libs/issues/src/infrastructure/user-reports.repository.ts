import { Injectable } from '@nestjs/common';
import { Database } from '@faultline/platform';
import { USER_REPORT_UPDATE_WINDOW_SECONDS, UserReportIntake, type UserReportInput } from '../contracts/user-report-intake';
import { receivedSinceIssue } from './event-time-bounds';

/** One stored user report, with the issue of the event it is about when that event is stored. */
export interface UserReportRow {
  id: string;
  project_id: string;
  event_id: string | null;
  name: string;
  email: string;
  comments: string;
  date_created: Date;
  issue_id: string | null;
  user: Record<string, unknown> | null;
}

const COLUMNS = `r.id::text AS id, r.project_id::text AS project_id, r.event_id, r.name, r.email, r.comments, r.date_created,
  e.issue_id::text AS issue_id, e.data->'user' AS "user"`;
/** The event a report is about, in the report's project, found on the day its id was last claimed (see IssueReadModel.event). */
const EVENT_JOIN = `LEFT JOIN LATERAL (
    SELECT e.issue_id, e.data FROM issues.event_ids k
    CROSS JOIN LATERAL (SELECT e.issue_id, e.data FROM issues.error_events e WHERE e.id = k.id AND e.received_at = k.received_at LIMIT 1) e
    WHERE k.project_id = r.project_id AND k.event_id = r.event_id ORDER BY k.claimed_on DESC LIMIT 1) e ON true`;

/** The `issues.user_reports` table: what users wrote about errors, kept per project. */
@Injectable()
export class UserReportsRepository extends UserReportIntake {
  constructor(private readonly database: Database) {
    super();
  }

  async record(sent: readonly UserReportInput[]): Promise<readonly string[]> {
    // One INSERT … ON CONFLICT cannot change a row twice: the last of a repeated id wins.
    const reports = [...new Map(sent.map((report) => [`${report.projectId}|${report.reportId}`, report])).values()];
    if (reports.length === 0) return [];
    const refused = await this.database.query<{ report_id: string }>(
      `WITH sent AS (
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
           AS s (project_id, report_id, event_id, name, email, comments, date_created)
       ), kept AS (
         INSERT INTO issues.user_reports AS r (project_id, report_id, event_id, name, email, comments, date_created)
         SELECT * FROM sent
         ON CONFLICT (project_id, report_id) DO UPDATE
           SET event_id = EXCLUDED.event_id, name = EXCLUDED.name, email = EXCLUDED.email, comments = EXCLUDED.comments
           WHERE EXCLUDED.date_created <= r.date_created + make_interval(secs => $8)
         RETURNING r.project_id, r.report_id
       )
       SELECT s.report_id FROM sent s WHERE NOT EXISTS (SELECT FROM kept k WHERE k.project_id = s.project_id AND k.report_id = s.report_id)`,
      [
        reports.map((report) => report.projectId),
        reports.map((report) => report.reportId),
        reports.map((report) => report.eventId),
        reports.map((report) => report.name),
        reports.map((report) => report.email),
        reports.map((report) => report.comments),
        reports.map((report) => report.receivedAt),
        USER_REPORT_UPDATE_WINDOW_SECONDS,
      ],
    );
    return refused.map((row) => row.report_id);
  }

  async forReport(projectId: string, reportId: string): Promise<UserReportRow | null> {
    const [row] = await this.database.query<UserReportRow>(
      `SELECT ${COLUMNS} FROM issues.user_reports r ${EVENT_JOIN} WHERE r.project_id = $1::bigint AND r.report_id = $2`,
      [projectId, reportId],
    );
    return row ?? null;
  }

  /** The reports on the issue's events, newest first. */
  async forIssue(issueId: string, offset: number, limit: number): Promise<UserReportRow[]> {
    return this.database.query<UserReportRow>(
      `SELECT ${COLUMNS} FROM issues.user_reports r JOIN issues.error_events e ON e.project_id = r.project_id AND e.event_id = r.event_id
       WHERE e.issue_id = $1::bigint AND ${receivedSinceIssue('e', '$1::bigint')} ORDER BY r.date_created DESC, r.id DESC OFFSET $2 LIMIT $3`,
      [issueId, offset, limit],
    );
  }

  /** The project's reports, newest first. */
  async forProject(projectId: string, offset: number, limit: number): Promise<UserReportRow[]> {
    return this.database.query<UserReportRow>(
      `SELECT ${COLUMNS} FROM issues.user_reports r ${EVENT_JOIN}
       WHERE r.project_id = $1::bigint ORDER BY r.date_created DESC, r.id DESC OFFSET $2 LIMIT $3`,
      [projectId, offset, limit],
    );
  }
}
