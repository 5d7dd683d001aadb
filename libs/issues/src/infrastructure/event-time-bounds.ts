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
const RECEIVED_BEFORE_OCCURRED_MS = 60_000;
const RECEIVED_AFTER_OCCURRED_MS = 30 * 86_400_000;

/**
 * The same range as values, for a read that binds them as parameters: PostgreSQL then plans only
 * the days in it, where a bound read from another row leaves it to plan every kept day's
 * partition (about 100) and skip them when it runs.
 */
export function receivedRange(occurredFrom: Date, occurredUntil?: Date): { from: Date; until?: Date } {
  return {
    from: new Date(occurredFrom.getTime() - RECEIVED_BEFORE_OCCURRED_MS),
    until: occurredUntil && new Date(occurredUntil.getTime() + RECEIVED_AFTER_OCCURRED_MS),
  };
}

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
