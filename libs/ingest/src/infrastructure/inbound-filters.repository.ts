import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Sql } from '@faultline/platform';
import { type InboundFilterMatchers, type InboundFilters, inboundFilterMatchers, NO_FILTERS } from '../domain';

const CACHE_MS = 5_000;
const CACHED_PROJECTS = 10_000;

@Injectable()
export class InboundFiltersRepository {
  private readonly cache = new LRUCache<string, InboundFilterMatchers, Sql>({
    max: CACHED_PROJECTS,
    ttl: CACHE_MS,
    fetchMethod: async (projectId, _stale, { context: sql }) => inboundFilterMatchers(await this.find(sql, projectId)),
    // A read cut short by save() still answers the batches waiting for it; lru-cache then does not keep it.
    ignoreFetchAbort: true,
  });

  async find(sql: Sql, projectId: string): Promise<InboundFilters> {
    const [row] = await sql.query<{ localhost: boolean; error_messages: string[]; releases: string[] }>(
      `SELECT localhost, error_messages, releases FROM ingest.project_inbound_filters WHERE project_id = $1`,
      [projectId],
    );
    return row ? { localhost: row.localhost, errorMessages: row.error_messages, releases: row.releases } : NO_FILTERS;
  }

  /**
   * For the event processor, ready to match: filters change rarely, so each process re-reads them
   * every few seconds (one read at a time per project).
   */
  cached(sql: Sql, projectId: string): Promise<InboundFilterMatchers> {
    return this.cache.forceFetch(projectId, { context: sql });
  }

  async save(sql: Sql, projectId: string, change: Partial<InboundFilters>): Promise<void> {
    await sql.execute(
      `INSERT INTO ingest.project_inbound_filters (project_id, localhost, error_messages, releases)
       VALUES ($1, COALESCE($2, false), COALESCE($3::text[], '{}'), COALESCE($4::text[], '{}'))
       ON CONFLICT (project_id) DO UPDATE SET
         localhost = COALESCE($2, project_inbound_filters.localhost),
         error_messages = COALESCE($3::text[], project_inbound_filters.error_messages),
         releases = COALESCE($4::text[], project_inbound_filters.releases),
         updated_at = now()`,
      [projectId, change.localhost ?? null, change.errorMessages ? [...change.errorMessages] : null, change.releases ? [...change.releases] : null],
    );
    this.cache.delete(projectId);
  }
}
