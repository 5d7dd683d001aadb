import { Inject, Injectable } from '@nestjs/common';
import { GroupCommit } from '@faultline/kernel';
import { Database, type Sql } from '@faultline/platform';
import { SessionIntake, type SessionInput } from '../contracts/session-intake';
import { foldSessions, HOUR_MS, SessionMemberKind, type SessionCounts, type SessionMember } from '../domain/session-rollup';
import { RELEASES_CONFIG, type ReleasesConfig, type SessionLimits } from './releases-config';

export type SessionGroupColumn = 'project_id' | 'release' | 'environment';

export interface SessionFilter {
  readonly projectIds: readonly string[];
  /** ISO, inclusive. */
  readonly start: string;
  /** ISO, exclusive. */
  readonly end: string;
  readonly intervalSeconds: number;
  readonly environments: readonly string[];
  readonly releases: readonly string[];
  readonly groupBy: readonly SessionGroupColumn[];
}

/** One group's counts in one interval (`slot` null: over the whole range). */
export interface SessionCountsRow {
  readonly group: Readonly<Record<SessionGroupColumn, string>>;
  readonly slot: number;
  readonly started: number;
  readonly errored: number;
  readonly abnormal: number;
  readonly crashed: number;
}

export interface SessionUsersRow {
  readonly group: Readonly<Record<SessionGroupColumn, string>>;
  readonly kind: SessionMemberKind;
  /** Null: distinct over the whole range. */
  readonly slot: number | null;
  readonly users: number;
}

/** A release's sessions in one project, as its health data needs them. */
export interface ReleaseHealthRow {
  readonly projectId: string;
  readonly release: string;
  readonly sessions: number;
  readonly crashed: number;
  readonly errored: number;
  readonly abnormal: number;
  readonly users: number;
  readonly crashedUsers: number;
  readonly sessions24h: number;
  readonly users24h: number;
  /** Sessions started in each of the 24 hours up to now, oldest first. */
  readonly hourly: number[];
}

export interface ProjectSessionsRow {
  readonly projectId: string;
  readonly sessions24h: number;
  readonly users24h: number;
}

/** Sessions one write folds at most (about 50 envelopes of 100 items). */
const MAX_SESSIONS_PER_WRITE = 5_000;

/**
 * Keeps sessions at admission: the sessions of all requests arriving during a write are folded
 * together by project, release, environment and hour (group commit), and written in two sorted
 * `unnest` upserts (members, then counts) in one transaction, within the per-hour budgets. One
 * write at a time per process: requests never queue on each other's row locks here.
 */
@Injectable()
export class SessionHealthRepository extends SessionIntake {
  private readonly limits: SessionLimits;
  private readonly commits = new GroupCommit<SessionInput>((sessions) => this.write(sessions), {
    concurrentWrites: 1,
    maxItemsPerWrite: MAX_SESSIONS_PER_WRITE,
  });

  constructor(
    private readonly database: Database,
    @Inject(RELEASES_CONFIG) config: ReleasesConfig,
  ) {
    super();
    this.limits = config.sessions;
  }

  record(sessions: readonly SessionInput[]): Promise<void> {
    return this.commits.add(sessions);
  }

  private async write(sessions: readonly SessionInput[]): Promise<void> {
    const { counts, members } = foldSessions(sessions);
    await this.database.transaction(async (tx) => {
      const newlyErrored = await this.addMembers(tx, members);
      for (const row of counts) row.errored += newlyErrored.get(bucketKey(row)) ?? 0;
      await this.addCounts(tx, counts);
    });
  }

  /**
   * Adds set members within the project's room for the hour; answers, per bucket key, how many
   * errored session ids were new (an errored session counts once, whatever its updates say).
   */
  private async addMembers(sql: Sql, members: readonly SessionMember[]): Promise<Map<string, number>> {
    const added = new Map<string, number>();
    if (members.length === 0) return added;
    const sorted = [...members].sort(
      (a, b) =>
        compare(a.projectId, b.projectId) ||
        compare(a.bucket, b.bucket) ||
        a.kind - b.kind ||
        compare(a.release, b.release) ||
        compare(a.environment, b.environment) ||
        compare(a.member, b.member),
    );
    // The room is counted once per project and hour (MATERIALIZED: inlined, its count would run
    // again for every incoming row); concurrent batches may overrun it by a batch.
    const rows = await sql.query<{ project_id: string; bucket: Date; release: string; environment: string }>(
      `WITH incoming AS (
         SELECT project_id, bucket, kind, release, environment, hashtextextended(id, 0) AS member, ord
         FROM unnest($1::bigint[], $2::timestamptz[], $3::smallint[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
           AS m (project_id, bucket, kind, release, environment, id, ord)
       ), room AS MATERIALIZED (
         SELECT d.project_id, d.bucket,
           $7::bigint - (SELECT count(*) FROM releases.session_members s WHERE s.project_id = d.project_id AND s.bucket = d.bucket) AS free
         FROM (SELECT DISTINCT project_id, bucket FROM incoming) d
       ), admitted AS (
         SELECT i.*, row_number() OVER (PARTITION BY i.project_id, i.bucket ORDER BY i.ord) AS rank FROM incoming i
       )
       INSERT INTO releases.session_members (project_id, bucket, kind, release, environment, member)
       SELECT a.project_id, a.bucket, a.kind, a.release, a.environment, a.member
       FROM admitted a JOIN room r ON r.project_id = a.project_id AND r.bucket = a.bucket
       WHERE a.rank <= r.free
       ORDER BY a.ord
       ON CONFLICT DO NOTHING
       RETURNING project_id, bucket, release, environment, kind`,
      [
        sorted.map((m) => m.projectId),
        sorted.map((m) => m.bucket),
        sorted.map((m) => m.kind),
        sorted.map((m) => m.release),
        sorted.map((m) => m.environment),
        sorted.map((m) => m.member),
        this.limits.maxDistinctIdsPerHour,
      ],
    );
    for (const row of rows as Array<{ project_id: string; bucket: Date; release: string; environment: string; kind: number }>) {
      if (row.kind !== SessionMemberKind.erroredSession) continue;
      const key = bucketKey({
        projectId: String(row.project_id),
        bucket: new Date(row.bucket).toISOString(),
        release: row.release,
        environment: row.environment,
      });
      added.set(key, (added.get(key) ?? 0) + 1);
    }
    return added;
  }

  /** Upserts the counts; a release and environment new to the project's hour needs room in its budget. */
  private async addCounts(sql: Sql, counts: readonly SessionCounts[]): Promise<void> {
    const sorted = [...counts].sort(
      (a, b) => compare(a.projectId, b.projectId) || compare(a.bucket, b.bucket) || compare(a.release, b.release) || compare(a.environment, b.environment),
    );
    await sql.execute(
      `WITH incoming AS (
         SELECT c.*, EXISTS (
           SELECT 1 FROM releases.session_counts e
           WHERE e.project_id = c.project_id AND e.bucket = c.bucket AND e.release = c.release AND e.environment = c.environment
         ) AS known
         FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])
           WITH ORDINALITY AS c (project_id, bucket, release, environment, organization_id, started, errored, abnormal, crashed, ord)
       ), room AS MATERIALIZED (
         SELECT d.project_id, d.bucket,
           $10::bigint - (SELECT count(*) FROM releases.session_counts s WHERE s.project_id = d.project_id AND s.bucket = d.bucket) AS free
         FROM (SELECT DISTINCT project_id, bucket FROM incoming) d
       ), admitted AS (
         SELECT i.*, row_number() OVER (PARTITION BY i.project_id, i.bucket, i.known ORDER BY i.ord) AS rank FROM incoming i
       )
       INSERT INTO releases.session_counts AS s (project_id, bucket, release, environment, organization_id, started, errored, abnormal, crashed)
       SELECT a.project_id, a.bucket, a.release, a.environment, a.organization_id, a.started, a.errored, a.abnormal, a.crashed
       FROM admitted a JOIN room r ON r.project_id = a.project_id AND r.bucket = a.bucket
       WHERE a.known OR a.rank <= r.free
       ORDER BY a.ord
       ON CONFLICT (project_id, bucket, release, environment) DO UPDATE SET
         started = s.started + EXCLUDED.started,
         errored = s.errored + EXCLUDED.errored,
         abnormal = s.abnormal + EXCLUDED.abnormal,
         crashed = s.crashed + EXCLUDED.crashed`,
      [
        sorted.map((c) => c.projectId),
        sorted.map((c) => c.bucket),
        sorted.map((c) => c.release),
        sorted.map((c) => c.environment),
        sorted.map((c) => c.organizationId),
        sorted.map((c) => c.started),
        sorted.map((c) => c.errored),
        sorted.map((c) => c.abnormal),
        sorted.map((c) => c.crashed),
        this.limits.maxReleasesPerHour,
      ],
    );
  }

  /** Counts per group and interval (`slot`: whole intervals since `start`). */
  async counts(filter: SessionFilter): Promise<SessionCountsRow[]> {
    const { where, params } = filterSql(filter);
    const columns = filter.groupBy.map((column) => `${column}::text AS ${column}`);
    const rows = await this.database.query<Record<string, string | null>>(
      `SELECT ${[...columns, `floor(extract(epoch FROM bucket - $2::timestamptz) / $${params.length + 1})::int AS slot`].join(', ')},
         sum(started)::text AS started, sum(errored)::text AS errored, sum(abnormal)::text AS abnormal, sum(crashed)::text AS crashed
       FROM releases.session_counts WHERE ${where}
       GROUP BY ${[...filter.groupBy, 'slot'].join(', ')}`,
      [...params, filter.intervalSeconds],
    );
    return rows.map((row) => ({
      group: groupOf(row, filter.groupBy),
      slot: Number(row.slot),
      started: Number(row.started),
      errored: Number(row.errored),
      abnormal: Number(row.abnormal),
      crashed: Number(row.crashed),
    }));
  }

  /** Distinct users per group, user kind and interval, and over the whole range (slot null). */
  async users(filter: SessionFilter): Promise<SessionUsersRow[]> {
    const { where, params } = filterSql(filter);
    const keys = [...filter.groupBy, 'kind'];
    const columns = filter.groupBy.map((column) => `${column}::text AS ${column}`);
    const rows = await this.database.query<Record<string, string | null>>(
      `SELECT ${[...columns, 'kind', 'slot'].join(', ')}, count(DISTINCT member)::text AS users
       FROM (SELECT *, floor(extract(epoch FROM bucket - $2::timestamptz) / $${params.length + 1})::int AS slot
             FROM releases.session_members WHERE ${where} AND kind <> ${SessionMemberKind.erroredSession}) m
       GROUP BY GROUPING SETS ((${[...keys, 'slot'].join(', ')}), (${keys.join(', ')}))`,
      [...params, filter.intervalSeconds],
    );
    return rows.map((row) => ({
      group: groupOf(row, filter.groupBy),
      kind: Number(row.kind) as SessionMemberKind,
      slot: row.slot === null ? null : Number(row.slot),
      users: Number(row.users),
    }));
  }
}

/** What release health needs of releases in projects: since `since`, and in the 24 hours before `now` (hourly). */
export async function readReleaseHealth(
  sql: Sql,
  pairs: ReadonlyArray<{ projectId: string; release: string }>,
  since: Date,
  now: Date,
): Promise<{ releases: ReleaseHealthRow[]; projects: ProjectSessionsRow[] }> {
  if (pairs.length === 0) return { releases: [], projects: [] };
  const dayStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
  const params = [pairs.map((p) => p.projectId), pairs.map((p) => p.release), since, dayStart];
  const wanted = `(project_id, release) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`;
  const [counts, users, projects] = await Promise.all([
    sql.query<Record<string, string>>(
      `SELECT project_id::text, release, sum(started)::text AS sessions, sum(crashed)::text AS crashed, sum(errored)::text AS errored, sum(abnormal)::text AS abnormal,
         coalesce(sum(started) FILTER (WHERE bucket >= $4), 0)::text AS sessions24h,
         coalesce(array_agg(floor(extract(epoch FROM bucket - $4::timestamptz) / 3600)::int || ':' || started) FILTER (WHERE bucket >= $4), '{}') AS hourly
       FROM releases.session_counts WHERE ${wanted} AND bucket >= $3 GROUP BY project_id, release`,
      params,
    ),
    sql.query<Record<string, string>>(
      `SELECT project_id::text, release,
         count(DISTINCT member) FILTER (WHERE kind = ${SessionMemberKind.user})::text AS users,
         count(DISTINCT member) FILTER (WHERE kind = ${SessionMemberKind.crashedUser})::text AS crashed_users,
         count(DISTINCT member) FILTER (WHERE kind = ${SessionMemberKind.user} AND bucket >= $4)::text AS users24h
       FROM releases.session_members WHERE ${wanted} AND bucket >= $3 GROUP BY project_id, release`,
      params,
    ),
    sql.query<Record<string, string>>(
      `SELECT c.project_id::text, c.sessions24h::text, coalesce(u.users24h, 0)::text AS users24h
       FROM (SELECT project_id, sum(started) AS sessions24h FROM releases.session_counts
             WHERE project_id = ANY($1::bigint[]) AND bucket >= $2 GROUP BY project_id) c
       LEFT JOIN (SELECT project_id, count(DISTINCT member) AS users24h FROM releases.session_members
                  WHERE project_id = ANY($1::bigint[]) AND bucket >= $2 AND kind = ${SessionMemberKind.user} GROUP BY project_id) u USING (project_id)`,
      [[...new Set(pairs.map((p) => p.projectId))], dayStart],
    ),
  ]);
  const usersOf = new Map(users.map((row) => [JSON.stringify([row.project_id, row.release]), row]));
  return {
    releases: counts.map((row) => {
      const user = usersOf.get(JSON.stringify([row.project_id, row.release]));
      const hourly = Array.from({ length: 24 }, () => 0);
      for (const point of row.hourly as unknown as string[]) {
        const [slot, count] = point.split(':').map(Number);
        if (slot >= 0 && slot < 24) hourly[slot] += count;
      }
      return {
        projectId: row.project_id,
        release: row.release,
        sessions: Number(row.sessions),
        crashed: Number(row.crashed),
        errored: Number(row.errored),
        abnormal: Number(row.abnormal),
        users: Number(user?.users ?? 0),
        crashedUsers: Number(user?.crashed_users ?? 0),
        sessions24h: Number(row.sessions24h),
        users24h: Number(user?.users24h ?? 0),
        hourly,
      };
    }),
    projects: projects.map((row) => ({ projectId: row.project_id, sessions24h: Number(row.sessions24h), users24h: Number(row.users24h) })),
  };
}

function filterSql(filter: SessionFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [filter.projectIds, filter.start, filter.end];
  const conditions = ['project_id = ANY($1::bigint[])', 'bucket >= $2::timestamptz', 'bucket < $3::timestamptz'];
  if (filter.environments.length > 0) {
    params.push(filter.environments);
    conditions.push(`environment = ANY($${params.length}::text[])`);
  }
  if (filter.releases.length > 0) {
    params.push(filter.releases);
    conditions.push(`release = ANY($${params.length}::text[])`);
  }
  return { where: conditions.join(' AND '), params };
}

function groupOf(row: Record<string, string | null>, columns: readonly SessionGroupColumn[]): Record<SessionGroupColumn, string> {
  return Object.fromEntries(columns.map((column) => [column, String(row[column])])) as Record<SessionGroupColumn, string>;
}

const bucketKey = (key: { projectId: string; bucket: string; release: string; environment: string }): string =>
  JSON.stringify([key.projectId, key.bucket, key.release, key.environment]);

/** Code-unit order, the same in every process, so concurrent writers lock rows in one order. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
