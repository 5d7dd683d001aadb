import { Injectable } from '@nestjs/common';
import { Database, type Transaction } from '@faultline/platform';
import { receivedSinceFirstSeen } from './event-time-bounds';

export interface MergeCandidateRow {
  id: string;
  project_id: string;
  issue_type: string;
  times_seen: string;
}

export interface IssueHashRow {
  hash: string;
  /** The newest event grouped by the hash; null when none is kept (retention pruned them). */
  latest_event_id: string | null;
}

export interface UnmergeSeedRow {
  event_id: string;
  occurred_at: Date;
  title: string | null;
  culprit: string | null;
  level: string | null;
  platform: string | null;
  exceptions: unknown;
}

export interface UnmergedIssueRow {
  id: string;
  projectId: string;
  fingerprintHash: string;
  shortId: string;
  title: string;
  culprit: string;
  level: string;
  platform: string;
  seenAt: string;
  issueType: string;
  firstException: { type?: string; value?: string } | null;
}

/**
 * The rows of merges and unmerges: which issue each fingerprint hash groups into, redirects of
 * merged ids, and the new issue of an unmerge.
 */
@Injectable()
export class IssueMergesRepository {
  constructor(private readonly database: Database) {}

  /** The locked issues, as a merge chooses among them. */
  async candidates(tx: Transaction, ids: readonly string[]): Promise<MergeCandidateRow[]> {
    return tx.query<MergeCandidateRow>(
      `SELECT id::text AS id, project_id::text AS project_id, issue_type, times_seen::text AS times_seen FROM issues.issues WHERE id = ANY($1::bigint[])`,
      [ids],
    );
  }

  /**
   * The fingerprints of `childIds` group into `primaryId` from now on and their ids answer as it;
   * their events and counts follow in bounded steps (IssueEventMovesRepository).
   */
  async redirect(tx: Transaction, primaryId: string, childIds: readonly string[]): Promise<void> {
    const params = [primaryId, childIds];
    await tx.execute(`UPDATE issues.issue_hashes SET issue_id = $1::bigint WHERE issue_id = ANY($2::bigint[])`, params);
    await tx.execute(`UPDATE issues.issue_redirects SET issue_id = $1::bigint WHERE issue_id = ANY($2::bigint[])`, params);
    await tx.execute(`INSERT INTO issues.issue_redirects (previous_issue_id, issue_id) SELECT unnest($2::bigint[]), $1::bigint`, params);
  }

  /** All of an issue's fingerprint hashes (an unmerge decides against them). */
  async allHashes(tx: Transaction, issueId: string): Promise<string[]> {
    const rows = await tx.query<{ hash: string }>(`SELECT hash FROM issues.issue_hashes WHERE issue_id = $1::bigint ORDER BY hash`, [issueId]);
    return rows.map((row) => row.hash);
  }

  /** The unmerged hashes group into `destinationId` from now on. */
  async moveHashes(tx: Transaction, sourceId: string, destinationId: string, hashes: readonly string[]): Promise<void> {
    await tx.execute(`UPDATE issues.issue_hashes SET issue_id = $2::bigint WHERE issue_id = $1::bigint AND hash = ANY($3::text[])`, [
      sourceId,
      destinationId,
      hashes,
    ]);
  }

  /**
   * The earliest stored event of these hashes of an issue, which the unmerged issue is made from
   * (its title, culprit, level and platform, as an issue takes them from its first event); null
   * when none is kept.
   */
  async earliestEvent(tx: Transaction, issueId: string, sourceHash: string, hashes: readonly string[]): Promise<UnmergeSeedRow | null> {
    const [row] = await tx.query<UnmergeSeedRow>(
      `SELECT event_id, occurred_at, data->>'title' AS title, data->>'culprit' AS culprit, data->>'level' AS level, data->>'platform' AS platform,
              data->'exceptions' AS exceptions
       FROM issues.error_events WHERE issue_id = $1::bigint AND (fingerprint_hash = ANY($3::text[]) OR (fingerprint_hash IS NULL AND $2 = ANY($3::text[])))
       ORDER BY occurred_at, id LIMIT 1`,
      [issueId, sourceHash, hashes],
    );
    return row ?? null;
  }

  /** A new issue's row, under an id taken beforehand (the unmerge decides with it). */
  async insertIssue(tx: Transaction, issue: UnmergedIssueRow): Promise<void> {
    await tx.execute(
      `INSERT INTO issues.issues (id, project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen, issue_type, first_exception)
       OVERRIDING SYSTEM VALUE VALUES ($1::bigint, $2::bigint, $3, $4, $5, $6, $7, $8, 'unresolved', 'new', $9::timestamptz, $9::timestamptz, $10, $11)`,
      [
        issue.id,
        issue.projectId,
        issue.fingerprintHash,
        issue.shortId,
        issue.title,
        issue.culprit,
        issue.level,
        issue.platform,
        issue.seenAt,
        issue.issueType,
        issue.firstException,
      ],
    );
  }

  /** An id for a new issue and the project's next short-id number. */
  async reserveIssue(tx: Transaction, projectId: string): Promise<{ id: string; number: number }> {
    const [{ id }] = await tx.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('issues.issues', 'id'))::text AS id`);
    const [{ last_number: number }] = await tx.query<{ last_number: number }>(
      `INSERT INTO issues.issue_counters (project_id, last_number) VALUES ($1, 1)
       ON CONFLICT (project_id) DO UPDATE SET last_number = issue_counters.last_number + 1 RETURNING last_number`,
      [projectId],
    );
    return { id, number };
  }

  /** The issue's fingerprint hashes (Sentry's group hashes), each with its newest event, a page at a time. */
  async hashes(issueId: string, offset: number, limit: number): Promise<IssueHashRow[]> {
    return this.database.query<IssueHashRow>(
      `SELECT h.hash, (SELECT e.event_id FROM issues.error_events e
                       WHERE e.issue_id = h.issue_id AND ${receivedSinceFirstSeen('e', 'i')} AND COALESCE(e.fingerprint_hash, i.fingerprint_hash) = h.hash
                       ORDER BY e.occurred_at DESC, e.id DESC LIMIT 1) AS latest_event_id
       FROM issues.issue_hashes h JOIN issues.issues i ON i.id = h.issue_id
       WHERE h.issue_id = $1::bigint ORDER BY h.hash OFFSET $2 LIMIT $3`,
      [issueId, offset, limit],
    );
  }
}
