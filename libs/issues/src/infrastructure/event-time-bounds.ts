/**
 * How far an event's received time (the stored events' partition key) can lie from its own time:
 * ingestion replaces an event time more than a minute after arrival, or more than 30 days before
 * it, by the arrival (ingest's `normalizeTimestamp`). So every event of an issue was received at
 * most a minute before the issue's `first_seen`, its newest at most a minute before `last_seen`,
 * and one that occurred in [start, end) was received in [start - 1 minute, end + 30 days). Reads
 * name that range of `received_at` so PostgreSQL reads only the days that can hold their rows.
 */
export const RECEIVED_BEFORE_OCCURRED = `interval '1 minute'`;
export const RECEIVED_AFTER_OCCURRED = `interval '30 days'`;

/** The condition that an event of alias `e` can belong to the issue of alias `i` (its partitions only), for a correlated read. */
export function receivedSinceFirstSeen(e: string, i: string): string {
  return receivedSince(e, `${i}.first_seen`);
}

/** The condition that an event of alias `e` can have occurred at or after the SQL time `since` (its partitions only). */
export function receivedSince(e: string, since: string): string {
  return `${e}.received_at >= ${since} - ${RECEIVED_BEFORE_OCCURRED}`;
}

/**
 * The same for the issue whose id is the SQL `issueId`, `since` its `first_seen` or `last_seen`:
 * a scalar subquery, which PostgreSQL evaluates before reading the table and prunes with (a
 * join to the issue would let it read every partition and filter after).
 */
export function receivedSinceIssue(e: string, issueId: string, since: 'first_seen' | 'last_seen' = 'first_seen'): string {
  return `${e}.received_at >= (SELECT s.${since} FROM issues.issues s WHERE s.id = ${issueId}) - ${RECEIVED_BEFORE_OCCURRED}`;
}
