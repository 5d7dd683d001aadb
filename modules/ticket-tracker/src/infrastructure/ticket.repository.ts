import { Injectable } from '@nestjs/common';
import type { Sql, Transaction } from '@faultline/platform';
import type { CallOutcome, TicketSubject } from '../domain/ticket';

export interface TicketRow {
  issue_id: string;
  organization_id: string;
  project_id: string;
  short_id: string;
  title: string;
  culprit: string;
  level: string;
  status: 'pending' | 'opened' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  external_id: string | null;
  url: string | null;
  created_at: Date;
  opened_at: Date | null;
}

const COLUMNS = `issue_id, organization_id, project_id, short_id, title, culprit, level, status, attempts, next_attempt_at,
  last_error, external_id, url, created_at, opened_at`;

/** The module's tables, in plain SQL that runs the same on PostgreSQL and the embedded database. */
@Injectable()
export class TicketRepository {
  /**
   * Queues a ticket for each issue in the caller's transaction; an issue that already has one is
   * left alone (a redelivered event), and issues recorded before the module was installed get none.
   * Answers how many were queued.
   */
  async enqueue(tx: Transaction, subjects: ReadonlyArray<TicketSubject & { sourceEventId: string; recordedAt: string }>): Promise<number> {
    let queued = 0;
    for (const subject of subjects) {
      queued += await tx.execute(
        `INSERT INTO ticket_tracker.ticket_tracker_tickets (issue_id, organization_id, project_id, short_id, title, culprit, level, source_event_id)
         SELECT $1::bigint, $2::bigint, $3::bigint, $4, $5, $6, $7, $8::uuid
         WHERE $9::timestamptz >= (SELECT installed_at FROM ticket_tracker.ticket_tracker_installation)
         ON CONFLICT (issue_id) DO NOTHING`,
        [
          subject.issueId,
          subject.organizationId,
          subject.projectId,
          subject.shortId,
          subject.title,
          subject.culprit,
          subject.level,
          subject.sourceEventId,
          subject.recordedAt,
        ],
      );
    }
    return queued;
  }

  /**
   * Takes up to `limit` due tickets for `leaseMs`: their next attempt moves past the lease, so
   * another process skips them, and a process that dies mid-call leaves them due again.
   */
  async claimDue(sql: Sql, limit: number, leaseMs: number): Promise<TicketRow[]> {
    return sql.query<TicketRow>(
      `UPDATE ticket_tracker.ticket_tracker_tickets t
       SET attempts = t.attempts + 1, next_attempt_at = now() + $2::integer * interval '1 millisecond'
       WHERE t.issue_id IN (
         SELECT issue_id FROM ticket_tracker.ticket_tracker_tickets
         WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at
         LIMIT $1::integer
         FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [limit, leaseMs],
    );
  }

  /** Records how a call ended; only a ticket still pending changes (the first answer wins). */
  async record(sql: Sql, issueId: string, outcome: CallOutcome, retryInSeconds: number): Promise<void> {
    if (outcome.kind === 'opened') {
      await sql.execute(
        `UPDATE ticket_tracker.ticket_tracker_tickets SET status = 'opened', external_id = $2, url = $3, last_error = NULL, opened_at = now()
         WHERE issue_id = $1::bigint AND status = 'pending'`,
        [issueId, outcome.externalId, outcome.url],
      );
    } else if (outcome.kind === 'failed') {
      await sql.execute(
        `UPDATE ticket_tracker.ticket_tracker_tickets SET status = 'failed', last_error = $2 WHERE issue_id = $1::bigint AND status = 'pending'`,
        [issueId, outcome.error],
      );
    } else {
      await sql.execute(
        `UPDATE ticket_tracker.ticket_tracker_tickets SET last_error = $2, next_attempt_at = now() + $3::double precision * interval '1 second'
         WHERE issue_id = $1::bigint AND status = 'pending'`,
        [issueId, outcome.error, retryInSeconds],
      );
    }
  }

  /** An issue's tickets (at most one today; a list so that the API can grow), newest first. */
  async listForIssue(sql: Sql, organizationId: string, issueId: string, status: string | undefined, offset: number, limit: number): Promise<TicketRow[]> {
    return sql.query<TicketRow>(
      `SELECT ${COLUMNS} FROM ticket_tracker.ticket_tracker_tickets
       WHERE organization_id = $1::bigint AND issue_id = $2::bigint AND ($3::text IS NULL OR status = $3::text)
       ORDER BY created_at DESC, issue_id DESC
       OFFSET $4::integer LIMIT $5::integer`,
      [organizationId, issueId, status ?? null, offset, limit],
    );
  }
}
