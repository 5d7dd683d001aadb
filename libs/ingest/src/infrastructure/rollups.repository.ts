import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { type DataCategory, legacyStatsOf, type Outcome } from '../domain';

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

/** Some quantity of a project's items of one category that had one outcome, at the time they arrived. */
export interface OutcomeCount {
  readonly organizationId: string;
  readonly projectId: string;
  readonly at: Date;
  readonly outcome: Outcome;
  readonly category: DataCategory;
  readonly reason: string | null;
  readonly quantity: number;
  readonly timesSeen: number;
}

/** The outcome rollup's buckets: hourly, the stats API's finest interval, and daily for long ranges. */
const OUTCOME_RESOLUTIONS: ReadonlyArray<{ name: '1h' | '1d'; seconds: number }> = [
  { name: '1h', seconds: 3600 },
  { name: '1d', seconds: 86400 },
];

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
    // Sorted keys: concurrent workers lock rows in one order and cannot deadlock. Arrays rather
    // than a VALUES list: PostgreSQL parses and plans one parameter per column, not per value.
    await sql.execute(
      `INSERT INTO ingest.tag_values (project_id, key, value, times_seen, first_seen, last_seen)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[], $6::timestamptz[])
         AS v (project_id, key, value, times_seen, first_seen, last_seen)
       ORDER BY project_id, key, value
       ON CONFLICT (project_id, key, value) DO UPDATE SET
         times_seen = tag_values.times_seen + EXCLUDED.times_seen,
         first_seen = LEAST(tag_values.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(tag_values.last_seen, EXCLUDED.last_seen)`,
      [
        tags.map((tag) => tag.projectId),
        tags.map((tag) => tag.key),
        tags.map((tag) => tag.value),
        tags.map((tag) => tag.count),
        tags.map((tag) => tag.firstSeen),
        tags.map((tag) => tag.lastSeen),
      ],
    );
  }

  async addUsers(sql: Sql, users: UserObservation[]): Promise<void> {
    if (users.length === 0) return;
    await sql.execute(
      `INSERT INTO ingest.event_users (project_id, hash, user_ident, email, username, ip_address, name, date_created)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
         AS v (project_id, hash, user_ident, email, username, ip_address, name, date_created)
       ORDER BY project_id, hash
       ON CONFLICT (project_id, hash) DO UPDATE SET
         email = COALESCE(EXCLUDED.email, event_users.email),
         username = COALESCE(EXCLUDED.username, event_users.username),
         name = COALESCE(EXCLUDED.name, event_users.name),
         date_created = LEAST(event_users.date_created, EXCLUDED.date_created)`,
      [
        users.map((user) => user.projectId),
        users.map((user) => user.hash),
        users.map((user) => user.id ?? null),
        users.map((user) => user.email ?? null),
        users.map((user) => user.username ?? null),
        users.map((user) => user.ipAddress ?? null),
        users.map((user) => user.name ?? null),
        users.map((user) => user.seenAt),
      ],
    );
  }

  /**
   * Adds outcomes to the outcome rollup (per organization, bucket, project, category, outcome and
   * reason) and, for error events, to the legacy project stats they count in (`legacyStatsOf`).
   */
  async addOutcomes(sql: Sql, outcomes: readonly OutcomeCount[]): Promise<void> {
    if (outcomes.length === 0) return;
    const merged = new Map<string, OutcomeCount & { resolution: string; bucket: string }>();
    for (const outcome of outcomes) {
      for (const { name, seconds } of OUTCOME_RESOLUTIONS) {
        const bucket = new Date(Math.floor(outcome.at.getTime() / (seconds * 1000)) * seconds * 1000).toISOString();
        const key = [outcome.organizationId, name, bucket, outcome.projectId, outcome.category, outcome.outcome, outcome.reason ?? ''].join('|');
        const entry = merged.get(key);
        merged.set(
          key,
          entry
            ? { ...entry, quantity: entry.quantity + outcome.quantity, timesSeen: entry.timesSeen + outcome.timesSeen }
            : { ...outcome, resolution: name, bucket },
        );
      }
    }
    const entries = [...merged.values()];
    await sql.execute(
      `INSERT INTO ingest.outcome_stats (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[])
         AS v (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
       ORDER BY organization_id, resolution, bucket, project_id, category, outcome, reason
       ON CONFLICT (organization_id, resolution, bucket, project_id, category, outcome, reason) DO UPDATE SET
         quantity = outcome_stats.quantity + EXCLUDED.quantity,
         times_seen = outcome_stats.times_seen + EXCLUDED.times_seen`,
      [
        entries.map((entry) => entry.organizationId),
        entries.map((entry) => entry.resolution),
        entries.map((entry) => entry.bucket),
        entries.map((entry) => entry.projectId),
        entries.map((entry) => entry.category),
        entries.map((entry) => entry.outcome),
        entries.map((entry) => entry.reason ?? ''),
        entries.map((entry) => entry.quantity),
        entries.map((entry) => entry.timesSeen),
      ],
    );
    await this.addStats(
      sql,
      outcomes.flatMap(({ projectId, at, outcome, category, quantity }) => legacyStatsOf(outcome, category).map((stat) => ({ projectId, stat, at, quantity }))),
    );
  }

  /** Adds counts to the 10 s, 1 h and 1 d buckets of each (project, stat, time). */
  private async addStats(sql: Sql, counts: Array<{ projectId: string; stat: string; at: Date; quantity: number }>): Promise<void> {
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
    const entries = [...merged.values()];
    await sql.execute(
      `INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[]) AS v (project_id, stat, resolution, bucket, count)
       ORDER BY project_id, stat, resolution, bucket
       ON CONFLICT (project_id, stat, resolution, bucket) DO UPDATE SET count = project_stats.count + EXCLUDED.count`,
      [
        entries.map((entry) => entry.projectId),
        entries.map((entry) => entry.stat),
        entries.map((entry) => entry.resolution),
        entries.map((entry) => entry.bucket),
        entries.map((entry) => entry.count),
      ],
    );
  }
}
