import { Injectable } from '@nestjs/common';
import { Database, type Sql } from '@faultline/platform';
import type { QuotaCategory } from '../domain';

/** `accepted`: kept at admission (sessions); events are counted `generated` when processed. */
export type Outcome = 'received' | 'accepted' | 'rejected' | 'blacklisted' | 'generated';

export interface QueuedEvent {
  id: string;
  project_id: string;
  project_slug: string;
  organization_id: string;
  event_id: string;
  received_at: Date;
  client_ip: string | null;
  payload: string;
  /** Failed attempts so far (each put the event back for later). */
  attempts: number;
  /** Claims of this row, this one included: more than one means earlier processors died with it. */
  claims: number;
}

export interface OutcomeRow {
  projectId: string;
  outcome: Outcome;
  category: string;
  quantity: number;
  reason?: string;
}

export interface QueueRow {
  projectId: string;
  projectSlug: string;
  organizationId: string;
  eventId: string;
  clientIp?: string;
  /** The event item as the SDK sent it (JSON text); the worker parses it. */
  payload: string;
}

export interface Admission {
  /** When the SDK's request arrived, by the application's clock: the events' and outcomes' time. */
  readonly receivedAt: Date;
  readonly events: readonly QueueRow[];
  readonly outcomes: readonly OutcomeRow[];
}

interface PendingAdmission {
  readonly admission: Admission;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Oldest first through the primary key; events put back for later, or leased to a batch, are
 * skipped by the filter. The candidates are taken once (a materialised CTE): as `… WHERE id IN
 * (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` a plan that rescans the subquery per row skips the
 * rows this statement has just changed and takes the next ones, and so claimed tens of thousands
 * of events at once.
 *
 * The claim commits a lease (`available_at` moves to the lease's end) and counts itself in
 * `claims`; the batch's transaction then deletes the rows it processes. A row with claims is one
 * a processor took and never finished (it died): such a row is claimed alone, and the other
 * candidates stay for the next claim, so a fatal event takes only itself down again.
 */
export function claimStatement(limit: number, now: Date, leaseSeconds: number): string {
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(leaseSeconds)) throw new Error('claim limit and lease are whole numbers');
  // A script (the plan settings and the claim in one implicit transaction, one round trip) takes
  // no parameters: the values are numbers and a timestamp this code wrote.
  const at = `'${now.toISOString()}'::timestamptz`;
  return `WITH candidates AS MATERIALIZED (
    SELECT id, claims FROM ingest.ingest_queue WHERE available_at <= ${at} ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED),
  abandoned AS (SELECT min(id) AS id FROM candidates WHERE claims > 0)
  UPDATE ingest.ingest_queue q SET claims = q.claims + 1, available_at = ${at} + make_interval(secs => ${leaseSeconds})
  FROM candidates c, abandoned a WHERE q.id = c.id AND (a.id IS NULL OR c.id = a.id)
  RETURNING q.id, q.project_id, q.project_slug, q.organization_id, q.event_id, q.received_at, q.client_ip, q.payload, q.attempts, q.claims`;
}

/**
 * A queue table's statistics describe it as the last vacuum found it, often nearly empty in many
 * pages; from them the planner would read a burst's whole backlog (a sequential or bitmap scan
 * and a sort) to take its first rows. The claim is pinned to the primary key for its transaction.
 */
export const CLAIM_PLAN = `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off`;

/**
 * Statements writing admissions at once; the rest wait and go together in the next one. One: the
 * WAL flushes of commits are taken one at a time anyway, and a second statement in flight only
 * halves the groups (more statements and commits for PostgreSQL per event).
 */
const MAX_CONCURRENT_WRITES = 1;
const MAX_EVENTS_PER_WRITE = 500;

/**
 * The durable hand-off between the SDK endpoints and the processing workers.
 *
 * Admissions are written by group commit: while a write is in flight, concurrent accepts queue up
 * in memory and then go to PostgreSQL together, as one statement (its own transaction), and every
 * caller is answered after that statement commits. One round trip and one WAL flush serve many
 * SDK requests, and an SDK still hears 200 only once its events are durable.
 */
@Injectable()
export class IngestQueueRepository {
  private readonly pending: PendingAdmission[] = [];
  private writing = 0;

  constructor(private readonly database: Database) {}

  admit(admission: Admission): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ admission, resolve, reject });
      this.writeNext();
    });
  }

  private writeNext(): void {
    while (this.writing < MAX_CONCURRENT_WRITES && this.pending.length > 0) {
      const group: PendingAdmission[] = [];
      let events = 0;
      while (this.pending.length > 0 && (group.length === 0 || events + this.pending[0].admission.events.length <= MAX_EVENTS_PER_WRITE)) {
        const next = this.pending.shift() as PendingAdmission;
        events += next.admission.events.length;
        group.push(next);
      }
      this.writing++;
      this.write(group.map((entry) => entry.admission))
        .then(
          () => group.forEach((entry) => entry.resolve()),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.writing--;
          this.writeNext();
        });
    }
  }

  /**
   * Both inserts in one statement: atomic without a BEGIN/COMMIT round trip each. Payloads go as
   * plain parameters (a text[] parameter would cost an escaping pass over every byte); outcomes
   * go summed, a row per kind rather than per request.
   */
  private async write(admissions: readonly Admission[]): Promise<void> {
    const events = admissions.flatMap(({ events, receivedAt }) => events.map((row) => ({ ...row, receivedAt })));
    const outcomes = summed(admissions.flatMap(({ outcomes, receivedAt }) => outcomes.map((row) => ({ ...row, receivedAt }))));
    const params: unknown[] = [
      outcomes.map((row) => row.projectId),
      outcomes.map((row) => row.outcome),
      outcomes.map((row) => row.category),
      outcomes.map((row) => row.quantity),
      outcomes.map((row) => row.reason ?? null),
      outcomes.map((row) => row.receivedAt.toISOString()),
    ];
    const values = events.map((row) => {
      params.push(row.projectId, row.projectSlug, row.organizationId, row.eventId, row.receivedAt.toISOString(), row.clientIp ?? null, row.payload);
      const at = params.length - 7;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}::bigint, $${at + 4}, $${at + 5}::timestamptz, $${at + 5}::timestamptz, $${at + 6}, $${at + 7})`;
    });
    const outcomesInsert = `INSERT INTO ingest.ingest_outcomes (project_id, outcome, category, quantity, reason, recorded_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::timestamptz[])`;
    await this.database.execute(
      values.length === 0
        ? outcomesInsert
        : `WITH queued AS (
             INSERT INTO ingest.ingest_queue (project_id, project_slug, organization_id, event_id, received_at, available_at, client_ip, payload)
             VALUES ${values.join(', ')})
           ${outcomesInsert}`,
      params,
    );
  }

  /** Whether any queued event is due at `now` (leased ones are not: their batch is processing them or died). */
  async anyDue(sql: Sql, now: Date): Promise<boolean> {
    const [{ due }] = await sql.query<{ due: boolean }>(`SELECT EXISTS (SELECT 1 FROM ingest.ingest_queue WHERE available_at <= $1) AS due`, [now]);
    return due;
  }

  /** Leases up to `limit` due events (or one abandoned event alone) in a transaction of its own, committed on return. */
  async claim(limit: number, now: Date, leaseSeconds: number): Promise<QueuedEvent[]> {
    return this.database.query<QueuedEvent>(`${CLAIM_PLAN}; ${claimStatement(limit, now, leaseSeconds)}`);
  }

  /**
   * Takes the claimed events off the queue inside `tx`, which then processes them: only rows still
   * under this claim (a row whose lease ran out and was claimed again belongs to the newer claim).
   * Until `tx` ends the rows are locked and other claims skip them; if it never commits, they come
   * back when the lease ends, with their claim counted.
   */
  async take(tx: Sql, claimed: readonly QueuedEvent[]): Promise<QueuedEvent[]> {
    if (claimed.length === 0) return [];
    const taken = await tx.query<{ id: string }>(
      `DELETE FROM ingest.ingest_queue q USING unnest($1::bigint[], $2::integer[]) AS c (id, claims)
       WHERE q.id = c.id AND q.claims = c.claims RETURNING q.id::text AS id`,
      [claimed.map((event) => event.id), claimed.map((event) => event.claims)],
    );
    const ids = new Set(taken.map((row) => row.id));
    return claimed.filter((event) => ids.has(String(event.id)));
  }

  /** Puts an event back after a failed attempt, later each time. */
  async retryLater(sql: Sql, event: QueuedEvent, error: string, now: Date): Promise<void> {
    const delaySeconds = Math.min(3600, 2 ** Math.min(event.attempts, 12));
    await sql.execute(
      `INSERT INTO ingest.ingest_queue (project_id, project_slug, organization_id, event_id, received_at, client_ip, payload, attempts, available_at, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamptz + make_interval(secs => $10), $11)`,
      [
        event.project_id,
        event.project_slug,
        event.organization_id,
        event.event_id,
        event.received_at,
        event.client_ip,
        event.payload,
        event.attempts + 1,
        now,
        delaySeconds,
        error.slice(0, 2000),
      ],
    );
  }

  /** Takes recorded outcomes off their table to fold them into the stats rollups. */
  async claimOutcomes(sql: Sql, limit: number): Promise<Array<{ project_id: string; outcome: Outcome; quantity: number; recorded_at: Date }>> {
    return sql.query(
      `WITH claimed AS MATERIALIZED (SELECT id FROM ingest.ingest_outcomes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       DELETE FROM ingest.ingest_outcomes o USING claimed WHERE o.id = claimed.id
       RETURNING o.project_id, o.outcome, o.quantity, o.recorded_at`,
      [limit],
    );
  }

  /**
   * Counts each category's quantity against the key's current window of that category; answers the
   * windows' totals. The key's ended windows go in the same statement, so a key keeps one row per
   * category however long it sends.
   */
  async countAgainstRateLimit(
    sql: Sql,
    keyId: string,
    windowSeconds: number,
    quantities: ReadonlyArray<{ readonly category: QuotaCategory; readonly quantity: number }>,
    now: Date,
  ): Promise<{ counts: ReadonlyArray<{ category: QuotaCategory; count: number }>; windowEnds: Date }> {
    const windowMs = windowSeconds * 1000;
    const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    // In category order, so two requests of one key never wait on each other's rows crosswise.
    const sorted = [...quantities].sort((a, b) => a.category.localeCompare(b.category));
    const counts = await sql.query<{ category: QuotaCategory; count: number }>(
      `WITH ended AS (DELETE FROM ingest.ingest_rate_windows WHERE key_id = $1 AND window_start < $2)
       INSERT INTO ingest.ingest_rate_windows (key_id, category, window_start, count)
       SELECT $1, category, $2, quantity FROM unnest($3::text[], $4::integer[]) AS q (category, quantity)
       ON CONFLICT (key_id, category, window_start) DO UPDATE SET count = ingest_rate_windows.count + EXCLUDED.count
       RETURNING category, count`,
      [keyId, windowStart.toISOString(), sorted.map((q) => q.category), sorted.map((q) => q.quantity)],
    );
    return { counts, windowEnds: new Date(windowStart.getTime() + windowMs) };
  }
}

/** One row per project, outcome, category, reason and second, however many requests a write carries. */
function summed<T extends OutcomeRow & { receivedAt: Date }>(outcomes: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const row of outcomes) {
    const key = `${row.projectId}|${row.outcome}|${row.category}|${row.reason ?? ''}|${Math.floor(row.receivedAt.getTime() / 1000)}`;
    const sum = byKey.get(key);
    byKey.set(key, sum ? { ...sum, quantity: sum.quantity + row.quantity } : row);
  }
  return [...byKey.values()];
}
