import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@faultline/kernel';
import { Database, type Transaction } from '@faultline/platform';
import { EventAttachmentsRepository } from './event-attachments.repository';

export type IssueEventMoveKind = 'merge' | 'unmerge' | 'delete';

export interface NewIssueEventMove {
  readonly kind: IssueEventMoveKind;
  readonly sourceIssueId: string;
  /** Where the events go; none for a delete. */
  readonly targetIssueId?: string;
  /** An unmerge moves only the events of these hashes. */
  readonly hashes?: readonly string[];
}

interface MoveRow {
  id: string;
  kind: IssueEventMoveKind;
  source_issue_id: string;
  target_issue_id: string | null;
  source_hash: string;
  hashes: string[] | null;
}

interface MovedEventRow {
  occurred_at: Date;
  tags: string[] | null;
  release: string | null;
  user_hash: string | null;
}

/** Rows one statement of a move touches at most: each statement stays short whatever the issue holds. */
export const MOVE_BATCH = 1000;

/** A graph's resolutions with their bucket size in milliseconds (as ingestion counts them). */
const STAT_BUCKETS = [
  ['1h', 3_600_000],
  ['1d', 86_400_000],
] as const;

/** The `active` condition of an issue: not merged away or deleted while its rows are still being moved. */
export const NOT_BEING_REMOVED = `NOT EXISTS (SELECT 1 FROM issues.issue_event_moves m WHERE m.source_issue_id = i.id AND m.kind <> 'unmerge')`;

/**
 * Moving (or deleting) an issue's stored events and what is counted of them, in bounded steps.
 * A merge, unmerge or delete commits its decision together with a row here; each `step` then runs
 * one transaction that locks the move and its issues, moves at most MOVE_BATCH rows per table and
 * adjusts both issues' counters, graphs, users and tag values by exactly what moved, so after any
 * step (a crash included) every event is counted once, in the issue that holds it. A step that
 * finds nothing left finishes the move (a merged or deleted issue's row goes then) and deletes
 * the row. Steps are idempotent: they move whatever is still to move, events stored meanwhile
 * into a merged issue or under an unmerged hash included.
 */
@Injectable()
export class IssueEventMovesRepository {
  private readonly logger = new Logger('IssueEventMoves');

  constructor(
    private readonly database: Database,
    private readonly attachments: EventAttachmentsRepository,
  ) {}

  /**
   * Records a move in the deciding transaction; answers its id. A deleted issue's hashes go at
   * once, so new events of them start a new issue while the old one's rows are being deleted.
   */
  async enqueue(tx: Transaction, move: NewIssueEventMove, at: string): Promise<string> {
    if (move.kind === 'delete') await tx.execute(`DELETE FROM issues.issue_hashes WHERE issue_id = $1::bigint`, [move.sourceIssueId]);
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO issues.issue_event_moves (kind, source_issue_id, target_issue_id, source_hash, hashes, created_at)
       SELECT $1, i.id, $3::bigint, i.fingerprint_hash, $4::text[], $5::timestamptz FROM issues.issues i WHERE i.id = $2::bigint
       RETURNING id::text AS id`,
      [move.kind, move.sourceIssueId, move.targetIssueId ?? null, move.hashes ?? null, at],
    );
    return row.id;
  }

  /** An issue whose events are still moving takes part in no other merge, unmerge or delete. */
  async assertIdle(tx: Transaction, issueIds: readonly string[]): Promise<void> {
    const [busy] = await tx.query<{ id: string }>(
      `SELECT COALESCE(source_issue_id, target_issue_id)::text AS id FROM issues.issue_event_moves
       WHERE source_issue_id = ANY($1::bigint[]) OR target_issue_id = ANY($1::bigint[]) LIMIT 1`,
      [issueIds],
    );
    if (busy) throw DomainError.conflict('The issue is being merged, unmerged or deleted: try again in a moment.');
  }

  /** Moves older than `before` (left by a request that stopped), oldest first. */
  async stale(before: string, limit: number): Promise<string[]> {
    const rows = await this.database.query<{ id: string }>(
      `SELECT id::text AS id FROM issues.issue_event_moves WHERE created_at < $1::timestamptz ORDER BY id LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Runs steps until the move is done. `wait`: wait for a step another process is running (the
   * request that decided); otherwise leave the move to it (a worker). A step that fails (a
   * statement timeout, a deadlock with ingestion) leaves the rest to the worker: the decision is
   * committed, and nothing is counted twice or lost in between.
   */
  async complete(moveId: string, wait = true): Promise<void> {
    try {
      while (await this.step(moveId, wait));
    } catch (error) {
      this.logger.warn(`move ${moveId} stopped, the worker resumes it: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One bounded step of the move; answers whether more is left. */
  async step(moveId: string, wait = true): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const [move] = await tx.query<MoveRow>(
        `SELECT id::text AS id, kind, source_issue_id::text AS source_issue_id, target_issue_id::text AS target_issue_id, source_hash, hashes
         FROM issues.issue_event_moves WHERE id = $1::bigint FOR UPDATE ${wait ? '' : 'SKIP LOCKED'}`,
        [moveId],
      );
      if (!move) return false;
      // In id order, as ingestion and the commands lock issues; FOR UPDATE keeps events from being stored into them meanwhile.
      await tx.query(`SELECT id FROM issues.issues WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, [
        [move.source_issue_id, move.target_issue_id].filter((id): id is string => id !== null),
      ]);
      const more =
        move.kind === 'merge' ? await this.mergeStep(tx, move) : move.kind === 'unmerge' ? await this.unmergeStep(tx, move) : await this.deleteStep(tx, move);
      if (!more) await tx.execute(`DELETE FROM issues.issue_event_moves WHERE id = $1::bigint`, [move.id]);
      return more;
    });
  }

  /** A merged issue's events, users, tag values and graph counts go to the primary; then its counters, and its row goes. */
  private async mergeStep(tx: Transaction, move: MoveRow): Promise<boolean> {
    const source = move.source_issue_id;
    const target = move.target_issue_id as string;
    // Each event keeps the hash it was grouped by, so the primary's hashes still list their events.
    const events = await tx.execute(
      `UPDATE issues.error_events e SET issue_id = $2::bigint, fingerprint_hash = COALESCE(e.fingerprint_hash, $3)
       WHERE e.id IN (SELECT id FROM issues.error_events WHERE issue_id = $1::bigint LIMIT $4)`,
      [source, target, move.source_hash, MOVE_BATCH],
    );
    if (events >= MOVE_BATCH) return true;
    const [users] = await tx.query<{ moved: number; added: number }>(
      `WITH gone AS (
         DELETE FROM issues.issue_users WHERE issue_id = $1::bigint
           AND user_hash IN (SELECT user_hash FROM issues.issue_users WHERE issue_id = $1::bigint LIMIT $3)
         RETURNING user_hash),
       added AS (INSERT INTO issues.issue_users (issue_id, user_hash) SELECT $2::bigint, user_hash FROM gone ON CONFLICT DO NOTHING RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS moved, (SELECT count(*) FROM added)::int AS added`,
      [source, target, MOVE_BATCH],
    );
    // The merged users are history, not news: an ignore counting "N more users" goes on from where it was.
    if (users.added > 0) {
      await tx.execute(
        `UPDATE issues.issues SET user_count = user_count + $2::int, user_count_at_ignore = user_count_at_ignore + $2::int WHERE id = $1::bigint`,
        [target, users.added],
      );
    }
    if (users.moved >= MOVE_BATCH) return true;
    const tags = await tx.execute(
      `WITH gone AS (
         DELETE FROM issues.issue_tag_values WHERE issue_id = $1::bigint
           AND (key, value) IN (SELECT key, value FROM issues.issue_tag_values WHERE issue_id = $1::bigint LIMIT $3)
         RETURNING key, value, times_seen, first_seen, last_seen)
       INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
       SELECT $2::bigint, key, value, times_seen, first_seen, last_seen FROM gone
       ON CONFLICT (issue_id, key, value) DO UPDATE SET
         times_seen = issue_tag_values.times_seen + EXCLUDED.times_seen,
         first_seen = LEAST(issue_tag_values.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(issue_tag_values.last_seen, EXCLUDED.last_seen)`,
      [source, target, MOVE_BATCH],
    );
    if (tags >= MOVE_BATCH) return true;
    const stats = await tx.execute(
      `WITH gone AS (
         DELETE FROM issues.issue_stats WHERE issue_id = $1::bigint
           AND (resolution, bucket) IN (SELECT resolution, bucket FROM issues.issue_stats WHERE issue_id = $1::bigint LIMIT $3)
         RETURNING resolution, bucket, count)
       INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count) SELECT $2::bigint, resolution, bucket, count FROM gone
       ON CONFLICT (issue_id, resolution, bucket) DO UPDATE SET count = issue_stats.count + EXCLUDED.count`,
      [source, target, MOVE_BATCH],
    );
    if (stats >= MOVE_BATCH) return true;
    // Nothing of the merged issue is left but its counters: they join the primary's, and its row goes.
    await tx.execute(
      `UPDATE issues.issues p SET times_seen = p.times_seen + c.times_seen, times_seen_at_ignore = p.times_seen_at_ignore + c.times_seen,
              first_seen = LEAST(p.first_seen, c.first_seen), last_seen = GREATEST(p.last_seen, c.last_seen), unhandled = p.unhandled OR c.unhandled,
              (first_release, first_release_at) = (SELECT * FROM (VALUES (p.first_release, p.first_release_at), (c.first_release, c.first_release_at)) AS r (release, at)
                                                   WHERE r.release IS NOT NULL ORDER BY r.at LIMIT 1),
              (last_release, last_release_at) = (SELECT * FROM (VALUES (p.last_release, p.last_release_at), (c.last_release, c.last_release_at)) AS r (release, at)
                                                 WHERE r.release IS NOT NULL ORDER BY r.at DESC LIMIT 1)
       FROM issues.issues c WHERE p.id = $1::bigint AND c.id = $2::bigint`,
      [target, source],
    );
    await tx.execute(`DELETE FROM issues.issues WHERE id = $1::bigint`, [source]);
    return false;
  }

  /**
   * The events of the unmerged hashes go to the new issue, a batch at a time, and both issues'
   * counts, graphs, tag values and users change by what moved. At the end the source's first and
   * last seen are those of the events it keeps.
   */
  private async unmergeStep(tx: Transaction, move: MoveRow): Promise<boolean> {
    const source = move.source_issue_id;
    const target = move.target_issue_id as string;
    // An event stored before hashes were kept has none: it has its issue's own.
    const moved = await tx.query<MovedEventRow>(
      `UPDATE issues.error_events e SET issue_id = $2::bigint, fingerprint_hash = COALESCE(e.fingerprint_hash, $3)
       WHERE e.id IN (SELECT id FROM issues.error_events WHERE issue_id = $1::bigint
                        AND (fingerprint_hash = ANY($4::text[]) OR (fingerprint_hash IS NULL AND $3 = ANY($4::text[]))) LIMIT $5)
       RETURNING e.occurred_at, e.tags, e.data->>'release' AS release, e.user_hash`,
      [source, target, move.source_hash, move.hashes, MOVE_BATCH],
    );
    if (moved.length > 0) await this.recount(tx, source, target, moved);
    if (moved.length >= MOVE_BATCH) return true;
    await tx.execute(
      `UPDATE issues.issues i SET
         first_seen = COALESCE((SELECT min(occurred_at) FROM issues.error_events WHERE issue_id = i.id), i.first_seen),
         last_seen = COALESCE((SELECT max(occurred_at) FROM issues.error_events WHERE issue_id = i.id), i.last_seen)
       WHERE i.id = $1::bigint`,
      [source],
    );
    return false;
  }

  /** Counters, graphs, tag values and users of both sides of an unmerge, by the events of one batch. */
  private async recount(tx: Transaction, source: string, target: string, moved: readonly MovedEventRow[]): Promise<void> {
    const summary = summarize(moved);
    await tx.execute(
      `UPDATE issues.issues SET times_seen = GREATEST(times_seen - $2::int, 0), times_seen_at_ignore = GREATEST(times_seen_at_ignore - $2::int, 0)
       WHERE id = $1::bigint`,
      [source, moved.length],
    );
    await tx.execute(
      `UPDATE issues.issues SET times_seen = times_seen + $2::int, first_seen = LEAST(first_seen, $3::timestamptz), last_seen = GREATEST(last_seen, $4::timestamptz),
              (first_release, first_release_at) = (SELECT * FROM (VALUES ($5::text, $6::timestamptz), (issues.first_release, issues.first_release_at)) AS r (release, at)
                                                   WHERE r.release IS NOT NULL ORDER BY r.at LIMIT 1),
              (last_release, last_release_at) = (SELECT * FROM (VALUES ($7::text, $8::timestamptz), (issues.last_release, issues.last_release_at)) AS r (release, at)
                                                 WHERE r.release IS NOT NULL ORDER BY r.at DESC LIMIT 1)
       WHERE id = $1::bigint`,
      [
        target,
        moved.length,
        summary.firstSeen,
        summary.lastSeen,
        summary.firstRelease?.release ?? null,
        summary.firstRelease?.at ?? null,
        summary.lastRelease?.release ?? null,
        summary.lastRelease?.at ?? null,
      ],
    );

    const stats = [...summary.buckets.values()];
    const statParams = [stats.map((stat) => stat.resolution), stats.map((stat) => stat.bucket), stats.map((stat) => stat.count)];
    await tx.execute(
      `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count)
       SELECT $1::bigint, v.resolution, v.bucket, v.count FROM unnest($2::text[], $3::timestamptz[], $4::bigint[]) AS v (resolution, bucket, count)
       ON CONFLICT (issue_id, resolution, bucket) DO UPDATE SET count = issue_stats.count + EXCLUDED.count`,
      [target, ...statParams],
    );
    await tx.execute(
      `WITH v AS (SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::bigint[]) AS v (resolution, bucket, count)),
       lowered AS (UPDATE issues.issue_stats s SET count = s.count - v.count FROM v
                   WHERE s.issue_id = $1::bigint AND s.resolution = v.resolution AND s.bucket = v.bucket RETURNING s.resolution, s.bucket, s.count)
       DELETE FROM issues.issue_stats s USING lowered l
       WHERE s.issue_id = $1::bigint AND s.resolution = l.resolution AND s.bucket = l.bucket AND l.count <= 0`,
      [source, ...statParams],
    );

    const tags = [...summary.tags.values()];
    if (tags.length > 0) {
      const tagParams = [tags.map((tag) => tag.key), tags.map((tag) => tag.value), tags.map((tag) => tag.count)];
      await tx.execute(
        `INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
         SELECT $1::bigint, v.key, v.value, v.count, v.first_seen, v.last_seen
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::timestamptz[], $6::timestamptz[]) AS v (key, value, count, first_seen, last_seen)
         ON CONFLICT (issue_id, key, value) DO UPDATE SET
           times_seen = issue_tag_values.times_seen + EXCLUDED.times_seen,
           first_seen = LEAST(issue_tag_values.first_seen, EXCLUDED.first_seen),
           last_seen = GREATEST(issue_tag_values.last_seen, EXCLUDED.last_seen)`,
        [target, ...tagParams, tags.map((tag) => tag.firstSeen), tags.map((tag) => tag.lastSeen)],
      );
      // The source's remaining values keep their first and last seen: telling them again would read all its events.
      await tx.execute(
        `WITH v AS (SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[]) AS v (key, value, count)),
         lowered AS (UPDATE issues.issue_tag_values t SET times_seen = t.times_seen - v.count FROM v
                     WHERE t.issue_id = $1::bigint AND t.key = v.key AND t.value = v.value RETURNING t.key, t.value, t.times_seen)
         DELETE FROM issues.issue_tag_values t USING lowered l
         WHERE t.issue_id = $1::bigint AND t.key = l.key AND t.value = l.value AND l.times_seen <= 0`,
        [source, ...tagParams],
      );
    }

    if (summary.users.size === 0) return;
    const users = [...summary.users];
    const [{ added }] = await tx.query<{ added: number }>(
      `WITH added AS (INSERT INTO issues.issue_users (issue_id, user_hash) SELECT $1::bigint, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING 1)
       SELECT count(*)::int AS added FROM added`,
      [target, users],
    );
    if (added > 0) await tx.execute(`UPDATE issues.issues SET user_count = user_count + $2::int WHERE id = $1::bigint`, [target, added]);
    // A user stays the source's while one of the events it keeps counted them (one read of its events per batch).
    const [{ removed }] = await tx.query<{ removed: number }>(
      `WITH kept AS (SELECT DISTINCT user_hash FROM issues.error_events WHERE issue_id = $1::bigint AND user_hash = ANY($2::text[])),
       removed AS (DELETE FROM issues.issue_users WHERE issue_id = $1::bigint AND user_hash = ANY($2::text[])
                     AND user_hash NOT IN (SELECT user_hash FROM kept) RETURNING 1)
       SELECT count(*)::int AS removed FROM removed`,
      [source, users],
    );
    if (removed > 0) {
      await tx.execute(
        `UPDATE issues.issues SET user_count = GREATEST(user_count - $2::int, 0), user_count_at_ignore = GREATEST(user_count_at_ignore - $2::int, 0)
         WHERE id = $1::bigint`,
        [source, removed],
      );
    }
  }

  /** A deleted issue's events (their attachments first, freeing their bytes), users, tag values and graphs go; then its row. */
  private async deleteStep(tx: Transaction, move: MoveRow): Promise<boolean> {
    const source = move.source_issue_id;
    const batch = await tx.query<{ id: string }>(`SELECT id::text AS id FROM issues.error_events WHERE issue_id = $1::bigint LIMIT $2`, [source, MOVE_BATCH]);
    if (batch.length > 0) {
      const ids = batch.map((row) => row.id);
      await this.attachments.deleteOfEvents(tx, ids);
      // Their id claims go with them, so an event sent again afterwards is stored again.
      await tx.execute(
        `WITH gone AS (DELETE FROM issues.error_events WHERE id = ANY($1::bigint[]) RETURNING id, project_id, event_id, received_at)
         DELETE FROM issues.event_ids k USING gone g
         WHERE k.project_id = g.project_id AND k.event_id = g.event_id AND k.claimed_on = date_trunc('day', g.received_at, 'UTC') AND k.id = g.id`,
        [ids],
      );
      if (batch.length >= MOVE_BATCH) return true;
    }
    for (const table of ['issue_users', 'issue_tag_values', 'issue_stats'] as const) {
      // A row's ctid is unique only within its partition: the issue is named again.
      const deleted = await tx.execute(
        `DELETE FROM issues.${table} WHERE issue_id = $1::bigint AND ctid = ANY(ARRAY(SELECT ctid FROM issues.${table} WHERE issue_id = $1::bigint LIMIT $2))`,
        [source, MOVE_BATCH],
      );
      if (deleted >= MOVE_BATCH) return true;
    }
    await tx.execute(`DELETE FROM issues.issues WHERE id = $1::bigint`, [source]);
    return false;
  }
}

interface BatchSummary {
  firstSeen: string;
  lastSeen: string;
  firstRelease?: { release: string; at: string };
  lastRelease?: { release: string; at: string };
  buckets: Map<string, { resolution: string; bucket: string; count: number }>;
  tags: Map<string, { key: string; value: string; count: number; firstSeen: string; lastSeen: string }>;
  /** The users the batch's events counted. */
  users: Set<string>;
}

/** What a batch of moved events adds to one issue and takes from the other. */
function summarize(moved: readonly MovedEventRow[]): BatchSummary {
  const times = moved.map((row) => row.occurred_at.toISOString());
  const summary: BatchSummary = {
    firstSeen: times.reduce((a, b) => (b < a ? b : a)),
    lastSeen: times.reduce((a, b) => (b > a ? b : a)),
    buckets: new Map(),
    tags: new Map(),
    users: new Set(),
  };
  moved.forEach((row, index) => {
    const at = times[index];
    if (row.release) {
      if (!summary.firstRelease || at < summary.firstRelease.at) summary.firstRelease = { release: row.release, at };
      if (!summary.lastRelease || at >= summary.lastRelease.at) summary.lastRelease = { release: row.release, at };
    }
    if (row.user_hash) summary.users.add(row.user_hash);
    const ms = row.occurred_at.getTime();
    for (const [resolution, size] of STAT_BUCKETS) {
      const bucket = new Date(ms - (ms % size)).toISOString();
      const key = `${resolution}|${bucket}`;
      const stat = summary.buckets.get(key);
      if (stat) stat.count++;
      else summary.buckets.set(key, { resolution, bucket, count: 1 });
    }
    for (const tag of new Set(row.tags ?? [])) {
      const split = tag.indexOf('=');
      if (split < 0) continue;
      const key = tag.slice(0, split);
      const value = tag.slice(split + 1);
      const counted = summary.tags.get(tag);
      if (!counted) summary.tags.set(tag, { key, value, count: 1, firstSeen: at, lastSeen: at });
      else {
        counted.count++;
        if (at < counted.firstSeen) counted.firstSeen = at;
        if (at > counted.lastSeen) counted.lastSeen = at;
      }
    }
  });
  return summary;
}
