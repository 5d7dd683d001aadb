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

/**
 * The rows of a merge: an issue's events, fingerprint hashes, users, tag values, graphs and
 * counters move to the primary issue, the merged issue's row goes, and its id redirects.
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

  /** Moves everything of `childIds` to `primaryId` and deletes them; their ids then answer as the primary. */
  async move(tx: Transaction, primaryId: string, childIds: readonly string[]): Promise<void> {
    const params = [primaryId, childIds];
    // Each event keeps the hash it was grouped by, so the primary's hashes still list their events.
    await tx.execute(
      `UPDATE issues.error_events e SET issue_id = $1::bigint, fingerprint_hash = COALESCE(e.fingerprint_hash, c.fingerprint_hash)
       FROM issues.issues c WHERE c.id = ANY($2::bigint[]) AND e.issue_id = c.id`,
      params,
    );
    await tx.execute(`UPDATE issues.issue_hashes SET issue_id = $1::bigint WHERE issue_id = ANY($2::bigint[])`, params);
    await tx.execute(`UPDATE issues.issue_redirects SET issue_id = $1::bigint WHERE issue_id = ANY($2::bigint[])`, params);
    await tx.execute(`INSERT INTO issues.issue_redirects (previous_issue_id, issue_id) SELECT unnest($2::bigint[]), $1::bigint`, params);
    const [{ added }] = await tx.query<{ added: number }>(
      `WITH added AS (
         INSERT INTO issues.issue_users (issue_id, user_hash) SELECT DISTINCT $1::bigint, user_hash FROM issues.issue_users WHERE issue_id = ANY($2::bigint[])
         ON CONFLICT DO NOTHING RETURNING 1)
       SELECT count(*)::int AS added FROM added`,
      params,
    );
    await tx.execute(
      `INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
       SELECT $1::bigint, key, value, sum(times_seen), min(first_seen), max(last_seen) FROM issues.issue_tag_values
       WHERE issue_id = ANY($2::bigint[]) GROUP BY key, value
       ON CONFLICT (issue_id, key, value) DO UPDATE SET
         times_seen = issue_tag_values.times_seen + EXCLUDED.times_seen,
         first_seen = LEAST(issue_tag_values.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(issue_tag_values.last_seen, EXCLUDED.last_seen)`,
      params,
    );
    await tx.execute(
      `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count)
       SELECT $1::bigint, resolution, bucket, sum(count) FROM issues.issue_stats WHERE issue_id = ANY($2::bigint[]) GROUP BY resolution, bucket
       ON CONFLICT (issue_id, resolution, bucket) DO UPDATE SET count = issue_stats.count + EXCLUDED.count`,
      params,
    );
    // The merged events are history, not news: an ignore counting "N more" goes on from where it was.
    await tx.execute(
      `UPDATE issues.issues p SET times_seen = p.times_seen + c.seen, user_count = p.user_count + $3::int,
              times_seen_at_ignore = p.times_seen_at_ignore + c.seen, user_count_at_ignore = p.user_count_at_ignore + $3::int,
              first_seen = LEAST(p.first_seen, c.first_seen), last_seen = GREATEST(p.last_seen, c.last_seen),
              (first_release, first_release_at) = (SELECT r.release, r.at FROM (
                  SELECT p.first_release, p.first_release_at UNION ALL SELECT first_release, first_release_at FROM issues.issues WHERE id = ANY($2::bigint[])
                ) AS r (release, at) WHERE r.release IS NOT NULL ORDER BY r.at LIMIT 1),
              (last_release, last_release_at) = (SELECT r.release, r.at FROM (
                  SELECT p.last_release, p.last_release_at UNION ALL SELECT last_release, last_release_at FROM issues.issues WHERE id = ANY($2::bigint[])
                ) AS r (release, at) WHERE r.release IS NOT NULL ORDER BY r.at DESC LIMIT 1)
       FROM (SELECT sum(times_seen) AS seen, min(first_seen) AS first_seen, max(last_seen) AS last_seen FROM issues.issues WHERE id = ANY($2::bigint[])) c
       WHERE p.id = $1::bigint`,
      [primaryId, childIds, added],
    );
    await tx.execute(`DELETE FROM issues.issues WHERE id = ANY($1::bigint[])`, [childIds]);
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
