import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface EventUserRow {
  hash: string;
  user_ident: string | null;
  email: string | null;
  username: string | null;
  ip_address: string | null;
  name: string | null;
  date_created: Date;
}

export type EventUserField = 'user_ident' | 'email' | 'username' | 'ip_address';

/** Reads of the per-project read models the event processor keeps: stats buckets, event users, tag values. */
@Injectable()
export class ProjectReadModelsRepository {
  async statBuckets(
    sql: Sql,
    projectId: string,
    stat: string,
    resolution: string,
    start: number,
    end: number,
  ): Promise<Array<{ bucket: Date; count: string }>> {
    return sql.query<{ bucket: Date; count: string }>(
      `SELECT bucket, count FROM ingest.project_stats
       WHERE project_id = $1 AND stat = $2 AND resolution = $3 AND bucket >= to_timestamp($4) AND bucket <= to_timestamp($5)`,
      [projectId, stat, resolution, start, end],
    );
  }

  async users(
    sql: Sql,
    projectId: string,
    match: { field: EventUserField; value: string } | undefined,
    offset: number,
    limit: number,
  ): Promise<EventUserRow[]> {
    return sql.query<EventUserRow>(
      `SELECT hash, user_ident, email, username, ip_address, name, date_created FROM ingest.event_users
       WHERE project_id = $1 ${match ? `AND ${match.field} = $4` : ''} ORDER BY date_created DESC, hash OFFSET $2 LIMIT $3`,
      match ? [projectId, offset, limit, match.value] : [projectId, offset, limit],
    );
  }

  /** The project's first `limit` tag keys, walked one key at a time through the primary key, so a key with a million values costs one probe. */
  async tagKeys(sql: Sql, projectId: string, limit: number): Promise<Array<{ key: string }>> {
    return sql.query<{ key: string }>(
      `WITH RECURSIVE tag_keys(key) AS (
         (SELECT key FROM ingest.tag_values WHERE project_id = $1 ORDER BY key LIMIT 1)
         UNION ALL
         SELECT (SELECT next.key FROM ingest.tag_values next WHERE next.project_id = $1 AND next.key > tag_keys.key ORDER BY next.key LIMIT 1)
         FROM tag_keys WHERE tag_keys.key IS NOT NULL
       )
       SELECT key FROM tag_keys WHERE key IS NOT NULL LIMIT $2`,
      [projectId, limit],
    );
  }

  async tagKeyExists(sql: Sql, projectId: string, key: string): Promise<boolean> {
    return (await sql.query(`SELECT 1 FROM ingest.tag_values WHERE project_id = $1 AND key = $2 LIMIT 1`, [projectId, key])).length > 0;
  }

  async tagValues(sql: Sql, projectId: string, key: string, search: string | null, offset: number, limit: number) {
    return sql.query<{ value: string; times_seen: string; first_seen: Date; last_seen: Date }>(
      `SELECT value, times_seen, first_seen, last_seen FROM ingest.tag_values
       WHERE project_id = $1 AND key = $2 AND ($3::text IS NULL OR value ILIKE '%' || $3 || '%')
       ORDER BY last_seen DESC, value OFFSET $4 LIMIT $5`,
      [projectId, key, search, offset, limit],
    );
  }
}
