import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface TagObservation {
  projectId: string;
  key: string;
  value: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export interface UserObservation {
  projectId: string;
  hash: string;
  id?: string;
  email?: string;
  username?: string;
  ipAddress?: string;
  name?: string;
  seenAt: string;
}

const RESOLUTIONS: ReadonlyArray<{ name: '10s' | '1h' | '1d'; seconds: number }> = [
  { name: '10s', seconds: 10 },
  { name: '1h', seconds: 3600 },
  { name: '1d', seconds: 86400 },
];

/** Read models kept at ingest time: tag values, users, and stats buckets at three resolutions. */
@Injectable()
export class RollupsRepository {
  async addTagValues(sql: Sql, tags: TagObservation[]): Promise<void> {
    if (tags.length === 0) return;
    const params: unknown[] = [];
    const values = tags.map((tag) => {
      params.push(tag.projectId, tag.key, tag.value, tag.count, tag.firstSeen, tag.lastSeen);
      const at = params.length - 6;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}, $${at + 4}::bigint, $${at + 5}::timestamptz, $${at + 6}::timestamptz)`;
    });
    // Sorted keys: concurrent workers lock rows in one order and cannot deadlock.
    await sql.execute(
      `INSERT INTO tag_values (project_id, key, value, times_seen, first_seen, last_seen)
       SELECT * FROM (VALUES ${values.join(', ')}) AS v (project_id, key, value, times_seen, first_seen, last_seen)
       ORDER BY project_id, key, value
       ON CONFLICT (project_id, key, value) DO UPDATE SET
         times_seen = tag_values.times_seen + EXCLUDED.times_seen,
         first_seen = LEAST(tag_values.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(tag_values.last_seen, EXCLUDED.last_seen)`,
      params,
    );
  }

  async addUsers(sql: Sql, users: UserObservation[]): Promise<void> {
    if (users.length === 0) return;
    const params: unknown[] = [];
    const values = users.map((user) => {
      params.push(user.projectId, user.hash, user.id ?? null, user.email ?? null, user.username ?? null, user.ipAddress ?? null, user.name ?? null, user.seenAt);
      const at = params.length - 8;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8}::timestamptz)`;
    });
    await sql.execute(
      `INSERT INTO event_users (project_id, hash, user_ident, email, username, ip_address, name, date_created)
       SELECT * FROM (VALUES ${values.join(', ')}) AS v (project_id, hash, user_ident, email, username, ip_address, name, date_created)
       ORDER BY project_id, hash
       ON CONFLICT (project_id, hash) DO UPDATE SET
         email = COALESCE(EXCLUDED.email, event_users.email),
         username = COALESCE(EXCLUDED.username, event_users.username),
         name = COALESCE(EXCLUDED.name, event_users.name),
         date_created = LEAST(event_users.date_created, EXCLUDED.date_created)`,
      params,
    );
  }

  /** Adds counts to the 10 s, 1 h and 1 d buckets of each (project, stat, time). */
  async addStats(sql: Sql, counts: Array<{ projectId: string; stat: string; at: Date; quantity: number }>): Promise<void> {
    if (counts.length === 0) return;
    const merged = new Map<string, { projectId: string; stat: string; resolution: string; bucket: string; count: number }>();
    for (const { projectId, stat, at, quantity } of counts) {
      for (const { name, seconds } of RESOLUTIONS) {
        const bucket = new Date(Math.floor(at.getTime() / (seconds * 1000)) * seconds * 1000).toISOString();
        const key = `${projectId}|${stat}|${name}|${bucket}`;
        const entry = merged.get(key) ?? { projectId, stat, resolution: name, bucket, count: 0 };
        entry.count += quantity;
        merged.set(key, entry);
      }
    }
    const params: unknown[] = [];
    const values = [...merged.values()].map((entry) => {
      params.push(entry.projectId, entry.stat, entry.resolution, entry.bucket, entry.count);
      const at = params.length - 5;
      return `($${at + 1}::bigint, $${at + 2}, $${at + 3}, $${at + 4}::timestamptz, $${at + 5}::bigint)`;
    });
    await sql.execute(
      `INSERT INTO project_stats (project_id, stat, resolution, bucket, count)
       SELECT * FROM (VALUES ${values.join(', ')}) AS v (project_id, stat, resolution, bucket, count)
       ORDER BY project_id, stat, resolution, bucket
       ON CONFLICT (project_id, stat, resolution, bucket) DO UPDATE SET count = project_stats.count + EXCLUDED.count`,
      params,
    );
  }
}
