import { Injectable } from '@nestjs/common';
import { isHexId } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { SERVICE_HOOKS_FEATURE, type ServiceHookStatus } from '../domain';

export const SERVICE_HOOK_TARGET = 'service_hook';

export interface ServiceHookRow {
  id: string;
  project_id: string;
  url: string;
  secret: string;
  events: string[];
  status: ServiceHookStatus;
  disabled_reason: string | null;
  created_at: Date;
}

/** A subscribed hook with what its payloads need of its project and organization. */
export interface SubscribedHook {
  id: string;
  project_id: string;
  project_slug: string;
  project_name: string;
  organization_slug: string;
}

const COLUMNS = 'id, project_id, url, secret, events, status, disabled_reason, created_at';

@Injectable()
export class ServiceHooksRepository {
  async insert(sql: Sql, hook: { id: string; projectId: string; url: string; secret: string; events: string[] }): Promise<ServiceHookRow> {
    const [row] = await sql.query<ServiceHookRow>(
      `INSERT INTO webhooks.service_hooks (id, project_id, url, secret, events) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [hook.id, hook.projectId, hook.url, hook.secret, hook.events],
    );
    return row;
  }

  async list(sql: Sql, projectId: string, status: ServiceHookStatus | undefined, offset: number, limit: number): Promise<ServiceHookRow[]> {
    return sql.query<ServiceHookRow>(
      `SELECT ${COLUMNS} FROM webhooks.service_hooks WHERE project_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY created_at DESC, id OFFSET $3 LIMIT $4`,
      [projectId, status ?? null, offset, limit],
    );
  }

  /** The project's hook, locked when asked (inside a transaction). */
  async find(sql: Sql, projectId: string, hookId: string, options: { lock?: boolean } = {}): Promise<ServiceHookRow | null> {
    if (!isHexId(hookId)) return null;
    const [row] = await sql.query<ServiceHookRow>(
      `SELECT ${COLUMNS} FROM webhooks.service_hooks WHERE project_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
      [projectId, hookId],
    );
    return row ?? null;
  }

  async update(sql: Sql, hookId: string, changes: { url?: string; events?: string[]; status?: ServiceHookStatus }): Promise<ServiceHookRow> {
    const [row] = await sql.query<ServiceHookRow>(
      `UPDATE webhooks.service_hooks SET url = COALESCE($2, url), events = COALESCE($3, events), status = COALESCE($4, status),
              disabled_reason = CASE WHEN $4 IS NULL THEN disabled_reason ELSE NULL END,
              failing_since = CASE WHEN $4 = 'active' THEN NULL ELSE failing_since END, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [hookId, changes.url ?? null, changes.events ?? null, changes.status ?? null],
    );
    return row;
  }

  async delete(sql: Sql, hookId: string): Promise<void> {
    await sql.execute(`DELETE FROM webhooks.service_hooks WHERE id = $1`, [hookId]);
  }

  /** Active hooks of these projects that subscribe to `event`, where the project has the service hooks feature. */
  async subscribed(sql: Sql, projectIds: readonly string[], event: string): Promise<SubscribedHook[]> {
    return sql.query<SubscribedHook>(
      `SELECT h.id, h.project_id, p.slug AS project_slug, p.name AS project_name, o.slug AS organization_slug
       FROM webhooks.service_hooks h JOIN projects.project_directory p ON p.id = h.project_id
         JOIN identity.organization_directory o ON o.id = p.organization_id
       WHERE h.project_id = ANY($1::bigint[]) AND h.status = 'active' AND $2 = ANY(h.events) AND $3 = ANY(p.features)`,
      [projectIds, event, SERVICE_HOOKS_FEATURE],
    );
  }

  /** The hooks as the delivery engine sends to them, by id; deleted ones are absent. */
  async targets(sql: Sql, hookIds: readonly string[]): Promise<Array<{ id: string; url: string; secret: string; status: ServiceHookStatus }>> {
    return sql.query(`SELECT id, url, secret, status FROM webhooks.service_hooks WHERE id = ANY($1::text[])`, [hookIds]);
  }

  async recordSuccess(sql: Sql, hookIds: readonly string[]): Promise<void> {
    if (hookIds.length === 0) return;
    await sql.execute(`UPDATE webhooks.service_hooks SET failing_since = NULL WHERE id = ANY($1::text[]) AND failing_since IS NOT NULL`, [hookIds]);
  }

  /** Marks failing hooks; answers those failing for longer than `disableAfterMs` (still active). */
  async recordFailure(sql: Sql, hookIds: readonly string[], disableAfterMs: number): Promise<string[]> {
    if (hookIds.length === 0) return [];
    const rows = await sql.query<{ id: string; expired: boolean }>(
      `UPDATE webhooks.service_hooks SET failing_since = COALESCE(failing_since, now())
       WHERE id = ANY($1::text[]) AND status = 'active'
       RETURNING id, failing_since < now() - make_interval(secs => $2) AS expired`,
      [hookIds, disableAfterMs / 1000],
    );
    return rows.filter((row) => row.expired).map((row) => row.id);
  }

  async disable(sql: Sql, hookId: string, reason: string): Promise<boolean> {
    return (
      (await sql.execute(
        `UPDATE webhooks.service_hooks SET status = 'disabled', disabled_reason = $2, updated_at = now() WHERE id = $1 AND status = 'active'`,
        [hookId, reason],
      )) > 0
    );
  }
}
