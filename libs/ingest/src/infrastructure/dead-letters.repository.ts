import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { QueuedEvent } from './ingest-queue.repository';
import type { DeadLetterScope } from '../contracts/dead-letter-scope';

export interface DeadLetterRow {
  id: string;
  project_id: string;
  project_slug: string;
  organization_id: string;
  event_id: string;
  received_at: Date;
  attempts: number;
  reason: string;
  failed_at: Date;
  /** The payload's size in bytes, as the SDK sent it. */
  size: number;
}

export interface DeadLetterDetailRow extends DeadLetterRow {
  payload: string;
}

/** Longest reason kept: an error message, not a dump. */
const MAX_REASON = 2000;

const SCOPE = `($1::bigint IS NULL OR project_id = $1) AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[])) AND ($3::bigint IS NULL OR organization_id = $3)`;
const scopeParams = (scope: DeadLetterScope) => [scope.projectId ?? null, scope.ids ? [...scope.ids] : null, scope.organizationId ?? null];
const COLUMNS = `id, project_id, project_slug, organization_id, event_id, received_at, attempts, reason, failed_at, octet_length(payload)::int AS size`;

/** Accepted events that processing set aside, kept until they are retried or deleted. */
@Injectable()
export class DeadLettersRepository {
  async add(sql: Sql, event: QueuedEvent, attempts: number, reason: string): Promise<void> {
    await sql.execute(
      `INSERT INTO ingest.ingest_dead_letters (project_id, project_slug, organization_id, event_id, received_at, client_ip, payload, attempts, reason, category)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        event.project_id,
        event.project_slug,
        event.organization_id,
        event.event_id,
        event.received_at,
        event.client_ip,
        event.payload,
        attempts,
        reason.slice(0, MAX_REASON),
        event.category,
      ],
    );
  }

  /** Newest first. */
  async list(sql: Sql, scope: DeadLetterScope, offset: number, limit: number): Promise<DeadLetterRow[]> {
    return sql.query<DeadLetterRow>(`SELECT ${COLUMNS} FROM ingest.ingest_dead_letters WHERE ${SCOPE} ORDER BY id DESC OFFSET $4 LIMIT $5`, [
      ...scopeParams(scope),
      offset,
      limit,
    ]);
  }

  async find(sql: Sql, projectId: string, id: string): Promise<DeadLetterDetailRow | undefined> {
    const [row] = await sql.query<DeadLetterDetailRow>(
      `SELECT ${COLUMNS}, payload FROM ingest.ingest_dead_letters WHERE ${SCOPE}`,
      scopeParams({ projectId, ids: [id] }),
    );
    return row;
  }

  /** Moves them back to the queue as new arrivals (attempts start again); answers how many. */
  async requeue(sql: Sql, scope: DeadLetterScope, now: Date): Promise<number> {
    return sql.execute(
      `WITH moved AS (DELETE FROM ingest.ingest_dead_letters WHERE ${SCOPE} RETURNING *)
       INSERT INTO ingest.ingest_queue (project_id, project_slug, organization_id, event_id, category, received_at, client_ip, payload, available_at)
       SELECT project_id, project_slug, organization_id, event_id, category, received_at, client_ip, payload, $4 FROM moved ORDER BY id`,
      [...scopeParams(scope), now],
    );
  }

  async delete(sql: Sql, scope: DeadLetterScope): Promise<number> {
    return sql.execute(`DELETE FROM ingest.ingest_dead_letters WHERE ${SCOPE}`, scopeParams(scope));
  }

  /** In the whole instance. */
  async count(sql: Sql): Promise<number> {
    const [{ count }] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM ingest.ingest_dead_letters`);
    return count;
  }
}
