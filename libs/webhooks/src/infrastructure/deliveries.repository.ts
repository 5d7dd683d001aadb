import { Injectable } from '@nestjs/common';
import { Database, type Sql } from '@faultline/platform';
import type { DeliveryState, QueuedDelivery, RequestLogFilter, RequestLogRow } from '../contracts/webhook-targets';

export interface ClaimedDelivery {
  id: string;
  guid: string;
  target_kind: string;
  target_id: string;
  event_type: string;
  body: string;
  /** Times it was claimed, this claim included: a worker that died mid-attempt counts too. */
  attempts: number;
  created_at: Date;
}

export interface AttemptResult {
  readonly deliveryId: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  /** For status pending: when to try again. */
  readonly nextAttemptAt?: Date;
  readonly attemptedAt: Date;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly requestHeaders: Record<string, string>;
  readonly responseHeaders: Record<string, string> | null;
  readonly responseBody: string | null;
}

export interface DeliveryRow {
  id: string;
  guid: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
  /** The first LOGGED_REQUEST_BYTES characters of the body sent. */
  request_body: string;
}

export interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  request_headers: Record<string, string>;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/** Bytes of the request body the delivery log shows. */
const LOGGED_REQUEST_BYTES = 4096;

@Injectable()
export class DeliveriesRepository {
  constructor(private readonly database: Database) {}

  /**
   * In the caller's transaction, with the events that cause the deliveries; a repeated cause is
   * ignored. Each new delivery is queued: a row of `webhook_delivery_queue` exists exactly while its
   * delivery is pending.
   */
  async insert(tx: Sql, deliveries: readonly QueuedDelivery[]): Promise<number> {
    if (deliveries.length === 0) return 0;
    const params: unknown[] = [];
    const values = deliveries.map((delivery) => {
      params.push(delivery.guid, delivery.targetKind, delivery.targetId, delivery.cause, delivery.eventType, delivery.body);
      const at = params.length - 6;
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`;
    });
    return tx.execute(
      `WITH inserted AS (
         INSERT INTO webhooks.webhook_deliveries (guid, target_kind, target_id, cause, event_type, body) VALUES ${values.join(', ')}
         ON CONFLICT (target_kind, target_id, cause, event_type) DO NOTHING
         RETURNING id, target_kind, target_id
       )
       INSERT INTO webhooks.webhook_delivery_queue (delivery_id, target_kind, target_id) SELECT id, target_kind, target_id FROM inserted`,
      params,
    );
  }

  /**
   * Takes up to `limit` due deliveries, skipping those other workers hold, and at most
   * `perTargetLimit` per target counting the `held` ones this worker has already. The lease is the
   * queue row's new `due_at`: a worker that dies leaves the delivery due again when it ends.
   * Candidates are read without locks and only the chosen ones locked (each lock is a write),
   * re-checked as still due, so a concurrent claim of the same rows skips them.
   */
  /**
   * Leases due deliveries: each for its kind's lease (`leases`), or `defaultLeaseSeconds` for a
   * kind not named there, so a slow kind (mail) never holds a fast one's deliveries longer.
   */
  async claim(
    limit: number,
    heldTargets: readonly string[],
    heldCounts: readonly number[],
    perTargetLimit: number,
    leases: ReadonlyMap<string, number>,
    defaultLeaseSeconds: number,
  ): Promise<ClaimedDelivery[]> {
    return this.database.query<ClaimedDelivery>(
      `WITH due AS (
         SELECT delivery_id, target_id, due_at FROM webhooks.webhook_delivery_queue WHERE due_at <= now() ORDER BY due_at LIMIT $1 * 4
       ), chosen AS (
         SELECT ranked.delivery_id FROM (
           SELECT due.*, row_number() OVER (PARTITION BY target_id ORDER BY due_at, delivery_id) AS rank FROM due
         ) ranked LEFT JOIN unnest($2::text[], $3::integer[]) AS held (target_id, n) USING (target_id)
         WHERE ranked.rank + COALESCE(held.n, 0) <= $4
         ORDER BY ranked.due_at LIMIT $1
       ), locked AS (
         SELECT q.delivery_id FROM webhooks.webhook_delivery_queue q
         WHERE q.delivery_id IN (SELECT delivery_id FROM chosen) AND q.due_at <= now()
         FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE webhooks.webhook_delivery_queue q SET due_at = now() + make_interval(secs => COALESCE(lease.seconds, $5)), claims = q.claims + 1
         FROM locked JOIN webhooks.webhook_deliveries kind_of ON kind_of.id = locked.delivery_id
         LEFT JOIN unnest($6::text[], $7::integer[]) AS lease (kind, seconds) ON lease.kind = kind_of.target_kind
         WHERE q.delivery_id = locked.delivery_id
         RETURNING q.delivery_id, q.claims
       )
       SELECT d.id, d.guid, d.target_kind, d.target_id, d.event_type, d.body, leased.claims AS attempts, d.created_at
       FROM leased JOIN webhooks.webhook_deliveries d ON d.id = leased.delivery_id
       ORDER BY leased.delivery_id`,
      [limit, heldTargets, heldCounts, perTargetLimit, defaultLeaseSeconds, [...leases.keys()], [...leases.values()]],
    );
  }

  /** Hands claimed, unsent deliveries back: due now, the claim not counted. */
  async release(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.database.execute(`UPDATE webhooks.webhook_delivery_queue SET due_at = now(), claims = claims - 1 WHERE delivery_id = ANY($1::bigint[])`, [
      deliveryIds,
    ]);
  }

  /** Records finished attempts and their deliveries' new state, all in one statement. */
  async complete(results: readonly AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.database.execute(
      `WITH result AS (
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::integer[], $5::text[])
           AS r (id, status, next_attempt_at, status_code, error)
       ), dequeued AS (
         DELETE FROM webhooks.webhook_delivery_queue q USING result r WHERE q.delivery_id = r.id AND r.status <> 'pending'
       ), requeued AS (
         UPDATE webhooks.webhook_delivery_queue q SET due_at = r.next_attempt_at FROM result r WHERE q.delivery_id = r.id AND r.status = 'pending'
       ), updated AS (
         UPDATE webhooks.webhook_deliveries d SET status = r.status, attempts = d.attempts + 1,
                next_attempt_at = COALESCE(r.next_attempt_at, d.next_attempt_at),
                last_status_code = r.status_code, last_error = r.error,
                finished_at = CASE WHEN r.status = 'pending' THEN NULL ELSE now() END
         FROM result r WHERE d.id = r.id
       )
       INSERT INTO webhooks.webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, error, request_headers, response_headers, response_body)
       SELECT * FROM unnest($1::bigint[], $6::timestamptz[], $7::integer[], $4::integer[], $5::text[], $8::json[], $9::json[], $10::text[])`,
      [
        results.map((r) => r.deliveryId),
        results.map((r) => r.status),
        results.map((r) => r.nextAttemptAt?.toISOString() ?? null),
        results.map((r) => r.statusCode),
        results.map((r) => r.error),
        results.map((r) => r.attemptedAt.toISOString()),
        results.map((r) => Math.round(r.durationMs)),
        results.map((r) => JSON.stringify(r.requestHeaders)),
        results.map((r) => (r.responseHeaders ? JSON.stringify(r.responseHeaders) : null)),
        results.map((r) => r.responseBody),
      ],
    );
  }

  /** Fails every pending delivery of a target that was disabled or removed. */
  async failPending(sql: Sql, targetKind: string, targetIds: readonly string[], reason: string): Promise<void> {
    if (targetIds.length === 0) return;
    await sql.execute(
      `WITH failed AS (
         UPDATE webhooks.webhook_deliveries SET status = 'failed', last_error = $3, finished_at = now()
         WHERE target_kind = $1 AND target_id = ANY($2::text[]) AND status = 'pending'
         RETURNING id
       )
       DELETE FROM webhooks.webhook_delivery_queue WHERE delivery_id IN (SELECT id FROM failed)`,
      [targetKind, targetIds, reason],
    );
  }

  /** Deletes a target's deliveries, queued ones included, and with them their attempts. */
  async deleteForTarget(sql: Sql, targetKind: string, targetId: string): Promise<void> {
    await sql.execute(
      `WITH deleted AS (DELETE FROM webhooks.webhook_deliveries WHERE target_kind = $1 AND target_id = $2 RETURNING id)
       DELETE FROM webhooks.webhook_delivery_queue WHERE delivery_id IN (SELECT id FROM deleted)`,
      [targetKind, targetId],
    );
  }

  async list(targetKind: string, targetId: string, options: { failedOnly: boolean; offset: number; limit: number }): Promise<DeliveryRow[]> {
    return this.database.query<DeliveryRow>(
      `SELECT id, guid, event_type, status, attempts, next_attempt_at, last_status_code, last_error, created_at, finished_at,
              left(body, ${LOGGED_REQUEST_BYTES}) AS request_body
       FROM webhooks.webhook_deliveries WHERE target_kind = $1 AND target_id = $2 ${options.failedOnly ? `AND (status = 'failed' OR (status = 'pending' AND last_error IS NOT NULL))` : ''}
       ORDER BY id DESC OFFSET $3 LIMIT $4`,
      [targetKind, targetId, options.offset, options.limit],
    );
  }

  async find(sql: Sql, targetKind: string, targetId: string, guid: string): Promise<DeliveryRow | null> {
    const [row] = await sql.query<DeliveryRow>(
      `SELECT id, guid, event_type, status, attempts, next_attempt_at, last_status_code, last_error, created_at, finished_at,
              left(body, ${LOGGED_REQUEST_BYTES}) AS request_body
       FROM webhooks.webhook_deliveries WHERE target_kind = $1 AND target_id = $2 AND guid = $3`,
      [targetKind, targetId, guid],
    );
    return row ?? null;
  }

  /** The most recent attempts of each delivery, newest first. */
  async attempts(deliveryIds: readonly string[], perDelivery: number): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.database.query<AttemptRow>(
      `SELECT a.delivery_id, a.attempted_at, a.duration_ms, a.status_code, a.error, a.request_headers, a.response_headers, a.response_body
       FROM unnest($1::bigint[]) AS d (id)
       CROSS JOIN LATERAL (SELECT * FROM webhooks.webhook_attempts WHERE delivery_id = d.id ORDER BY id DESC LIMIT $2) a`,
      [deliveryIds, perDelivery],
    );
  }

  /**
   * The requests sent to a target (every attempt is one), newest first, at most `perEventType` of
   * each of `eventTypes`: one index range per type, however long the target's history.
   */
  async requestLog(targetKind: string, targetId: string, filter: RequestLogFilter): Promise<RequestLogRow[]> {
    return this.database.query<RequestLogRow>(
      `SELECT logged.guid, logged.event_type, logged.status, logged.body, logged.created_at, logged.attempted_at, logged.status_code, logged.error, logged.response_body
       FROM unnest($3::text[]) AS types (event_type)
       CROSS JOIN LATERAL (
         SELECT a.id, d.guid, d.event_type, d.status, d.body, d.created_at, a.attempted_at, a.status_code, a.error, a.response_body
         FROM webhooks.webhook_deliveries d JOIN webhooks.webhook_attempts a ON a.delivery_id = d.id
         WHERE d.target_kind = $1 AND d.target_id = $2 AND d.event_type = types.event_type
           AND ($4::timestamptz IS NULL OR a.attempted_at >= $4)
           AND ($5::timestamptz IS NULL OR a.attempted_at <= $5)
           AND (NOT $6 OR a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)
         ORDER BY d.id DESC, a.id DESC LIMIT $7
       ) logged
       ORDER BY logged.attempted_at DESC, logged.id DESC`,
      [
        targetKind,
        targetId,
        filter.eventTypes,
        filter.start?.toISOString() ?? null,
        filter.end?.toISOString() ?? null,
        filter.errorsOnly === true,
        filter.perEventType,
      ],
    );
  }

  /** Which of these delivery guids exist (a repeated cause queues nothing). */
  async existing(sql: Sql, guids: readonly string[]): Promise<string[]> {
    if (guids.length === 0) return [];
    const rows = await sql.query<{ guid: string }>(`SELECT guid FROM webhooks.webhook_deliveries WHERE guid = ANY($1::text[])`, [guids]);
    return rows.map((row) => row.guid);
  }

  /** How these deliveries of a kind stand now, by guid. */
  async states(targetKind: string, guids: readonly string[]): Promise<DeliveryState[]> {
    if (guids.length === 0) return [];
    return this.database.query<DeliveryState>(
      `SELECT guid, status, attempts, last_error, finished_at FROM webhooks.webhook_deliveries WHERE target_kind = $1 AND guid = ANY($2::text[])`,
      [targetKind, guids],
    );
  }

  /** Due again now, under the same id (receivers that already have it can tell). */
  async redeliver(sql: Sql, deliveryId: string): Promise<void> {
    await sql.execute(
      `WITH pending AS (
         UPDATE webhooks.webhook_deliveries SET status = 'pending', next_attempt_at = now(), finished_at = NULL WHERE id = $1
         RETURNING id, target_kind, target_id
       )
       INSERT INTO webhooks.webhook_delivery_queue (delivery_id, target_kind, target_id) SELECT id, target_kind, target_id FROM pending
       ON CONFLICT (delivery_id) DO UPDATE SET due_at = now()`,
      [deliveryId],
    );
  }

  /** Deletes attempts, and finished deliveries, older than `before`, a batch at a time. */
  async prune(before: Date, batch: number): Promise<number> {
    const attempts = await this.database.execute(
      `DELETE FROM webhooks.webhook_attempts WHERE id IN (SELECT id FROM webhooks.webhook_attempts WHERE attempted_at < $1 ORDER BY attempted_at LIMIT $2)`,
      [before.toISOString(), batch],
    );
    const deliveries = await this.database.execute(
      `DELETE FROM webhooks.webhook_deliveries WHERE id IN (
         SELECT id FROM webhooks.webhook_deliveries WHERE status <> 'pending' AND finished_at < $1 ORDER BY id LIMIT $2)`,
      [before.toISOString(), batch],
    );
    return attempts + deliveries;
  }
}
