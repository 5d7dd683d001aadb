import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { CLOCK, type Clock, isNumericId, normalizeEventId } from '@faultline/kernel';
import { Database, DAY_MS, dayOf, type Sql } from '@faultline/platform';
import { ISSUE_SORTS, type IssueSearch, type IssueSort } from '../application/queries/issue-search';
import type { IssueAssignee } from '../domain';
import { NOT_BEING_REMOVED } from './issue-event-moves.repository';
import { issueSearchConditions, searchesLatestRelease } from './issue-search.sql';
import { latestProjectReleases } from './project-releases.repository';
import { receivedRange, receivedSinceIssue } from './event-time-bounds';

/** One issue as the `issues` read model, its project and its stream's summary give it. */
export interface IssueRow {
  id: string;
  project_id: string;
  short_id: string;
  title: string;
  culprit: string;
  level: string;
  platform: string;
  status: string;
  substatus: string | null;
  assignee: IssueAssignee | null;
  first_seen: Date;
  last_seen: Date;
  times_seen: string;
  user_count: number;
  fingerprint_hash: string;
  /** Sentry's issue type: `error`, or the type of the context that raised it (`monitor_check_in_failure`). */
  issue_type: string;
  /** Some event of the issue was unhandled. */
  unhandled: boolean;
  project_slug: string;
  project_name: string;
  project_platform: string | null;
  num_comments: number;
  /** The issue's latest status event (resolved, ignored or unresolved) and its payload. */
  status_event_type: string | null;
  status_event_data: Record<string, unknown> | null;
  /** The main exception of the issue's first event, when it had one. */
  first_exception: { type?: string; value?: string } | null;
  first_release: IssueRelease | null;
  last_release: IssueRelease | null;
}

/** A release an issue was seen in, with when the project first saw it. */
export interface IssueRelease {
  version: string;
  dateCreated: string | null;
}

/** One value of a tag on an issue's events. */
export interface IssueTagValueRow {
  key: string;
  value: string;
  times_seen: string;
  first_seen: Date;
  last_seen: Date;
}

/** A tag key on an issue's events: how many events carry it and how many values it has. */
export interface IssueTagKeyRow {
  key: string;
  total_values: string;
  unique_values: number;
}

/**
 * Orders of an issue's tag values, as Sentry's `sort` maps them, newest, oldest-seen or most
 * frequent first; `id` (Sentry's default) is by last seen here, the rollup having no ids.
 */
export const ISSUE_TAG_VALUE_SORTS = { date: 'last_seen', age: 'first_seen', count: 'times_seen', id: 'last_seen' } as const;
export type IssueTagValueSort = keyof typeof ISSUE_TAG_VALUE_SORTS;

/** Event counts of an issue per bucket: `[unix seconds, count]`, oldest first, every bucket present. */
export type IssueStatsSeries = Array<[number, number]>;

/** A graph of issues: its name in `stats`, and how many buckets of an hour or a day end now. */
export interface IssueStatsWindow {
  readonly name: string;
  readonly resolution: '1h' | '1d';
  readonly buckets: number;
}

/** The graph periods Sentry's issue APIs name. */
export const ISSUE_STATS_PERIODS = {
  '24h': { name: '24h', resolution: '1h', buckets: 24 },
  '14d': { name: '14d', resolution: '1d', buckets: 14 },
  '30d': { name: '30d', resolution: '1d', buckets: 30 },
} as const satisfies Record<string, IssueStatsWindow>;

const BUCKET_MS = { '1h': 3_600_000, '1d': 86_400_000 } as const;

/** How long hourly graph counts are kept (the retention worker prunes older ones); daily ones live as long as the events. */
export const HOURLY_STATS_KEPT_MS = 2 * 86_400_000;

/** One stored error event. */
export interface ErrorEventRow {
  event_id: string;
  issue_id: string;
  project_id: string;
  occurred_at: Date;
  received_at: Date;
  data: Record<string, unknown>;
  /** The hash the event was grouped by: its issue's. */
  grouping_hash: string | null;
}

/** A time range of the issue stream (ISO times, end exclusive): issues with events in it. */
export interface IssueTimeRange {
  readonly start: string;
  readonly end: string;
}

export interface IssueListFilter {
  readonly organizationId: string;
  /** Only issues with events in this range; undefined: all time. */
  readonly range?: IssueTimeRange;
  /** Only these projects (already known to be the organization's); undefined: all of them. */
  readonly projectIds?: readonly string[];
  readonly search: IssueSearch;
  readonly sort: IssueSort;
  readonly offset: number;
  readonly limit: number;
}

const ORGANIZATION_ISSUES = `i.project_id IN (SELECT id FROM projects.project_directory WHERE organization_id = $1::bigint) AND ${NOT_BEING_REMOVED}`;

const ISSUE_COLUMNS = `
  i.id::text AS id, i.project_id::text AS project_id, i.short_id, i.title, i.culprit, i.level, i.platform,
  i.status, i.substatus, i.assignee, i.first_seen, i.last_seen, i.times_seen::text AS times_seen,
  i.user_count::int AS user_count, i.fingerprint_hash, i.issue_type, i.unhandled,
  p.slug AS project_slug, p.name AS project_name, p.platform AS project_platform,
  COALESCE(h.num_comments, 0)::int AS num_comments, h.status_event_type, h.status_event_data,
  i.first_exception,
  CASE WHEN i.first_release IS NOT NULL THEN json_build_object('version', i.first_release, 'dateCreated', fr.first_seen) END AS first_release,
  CASE WHEN i.last_release IS NOT NULL THEN json_build_object('version', i.last_release, 'dateCreated', lr.first_seen) END AS last_release`;

/** The stream's comment count and last status event. */
const ISSUE_JOINS = `
  JOIN projects.project_directory p ON p.id = i.project_id
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE e.event_type = 'issues.CommentAdded')
             - count(*) FILTER (WHERE e.event_type = 'issues.CommentDeleted') AS num_comments,
           (array_agg(e.event_type ORDER BY e.version DESC) FILTER (WHERE e.event_type IN
             ('issues.IssueResolved', 'issues.IssueIgnored', 'issues.IssueUnresolved')))[1] AS status_event_type,
           (array_agg(e.data ORDER BY e.version DESC) FILTER (WHERE e.event_type IN
             ('issues.IssueResolved', 'issues.IssueIgnored', 'issues.IssueUnresolved')))[1] AS status_event_data
    FROM event_store.stream_events e WHERE e.stream_id = 'issue-' || i.id::text
  ) h ON true
  LEFT JOIN ingest.project_tag_values fr ON fr.project_id = i.project_id AND fr.key = 'release' AND fr.value = i.first_release
  LEFT JOIN ingest.project_tag_values lr ON lr.project_id = i.project_id AND lr.key = 'release' AND lr.value = i.last_release`;

const EVENT_COLUMNS = `e.event_id, e.issue_id::text AS issue_id, e.project_id::text AS project_id, e.occurred_at, e.received_at, e.data,
  COALESCE(e.fingerprint_hash, (SELECT i.fingerprint_hash FROM issues.issues i WHERE i.id = e.issue_id)) AS grouping_hash`;
/** The events of the issue `$1`, read from the days since it was first seen (see event-time-bounds.ts). */
const ISSUE_EVENTS = `issues.error_events e WHERE e.issue_id = $1::bigint AND ${receivedSinceIssue('e', '$1::bigint')}`;

/**
 * The reads of the issues API: issues, always limited to the organization's projects, and their
 * stored events. Identity's tables (members, users, teams) are read by IssuePeople.
 */
@Injectable()
export class IssueReadModel {
  constructor(
    private readonly database: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The organization's issue by numeric id or short id, or a 404 for the caller's request. */
  async require(organizationId: string, idOrShortId: string): Promise<IssueRow> {
    const issue = await this.find(organizationId, idOrShortId);
    if (!issue) throw new NotFoundException();
    return issue;
  }

  /** An issue of the organization (optionally of one project) by numeric id or short id. */
  async find(organizationId: string, idOrShortId: string, projectId?: string, sql: Sql = this.database): Promise<IssueRow | null> {
    const params: unknown[] = [organizationId];
    const conditions = [ORGANIZATION_ISSUES];
    if (isNumericId(idOrShortId)) {
      // A merged issue's id answers as the issue it was merged into, as Sentry's redirects do.
      const id = `$${params.push(idOrShortId)}::bigint`;
      conditions.push(`i.id = COALESCE((SELECT r.issue_id FROM issues.issue_redirects r WHERE r.previous_issue_id = ${id}), ${id})`);
    } else if (/^[A-Za-z0-9-]{1,200}$/.test(idOrShortId)) {
      conditions.push(`upper(i.short_id) = upper($${params.push(idOrShortId)})`);
    } else {
      return null;
    }
    if (projectId) conditions.push(`i.project_id = $${params.push(projectId)}::bigint`);
    const [row] = await sql.query<IssueRow>(
      `SELECT ${ISSUE_COLUMNS} FROM issues.issues i ${ISSUE_JOINS} WHERE ${conditions.join(' AND ')} ORDER BY i.id LIMIT 1`,
      params,
    );
    return row ?? null;
  }

  /**
   * Issues of the same project with the same title (the exception's type and value) or the same
   * culprit, most recently seen first: Faultline's similar issues, two index lookups.
   */
  async similar(issue: IssueRow, limit: number): Promise<IssueRow[]> {
    return this.database.query<IssueRow>(
      `SELECT ${ISSUE_COLUMNS} FROM issues.issues i ${ISSUE_JOINS}
       WHERE i.project_id = $1::bigint AND i.id <> $2::bigint AND ${NOT_BEING_REMOVED}
         AND ((md5(i.title) = md5($3) AND i.title = $3) OR ($4 <> '' AND md5(i.culprit) = md5($4) AND i.culprit <> '' AND i.culprit = $4))
       ORDER BY i.last_seen DESC, i.id DESC LIMIT $5`,
      [issue.project_id, issue.id, issue.title, issue.culprit ?? '', limit],
    );
  }

  async list(filter: IssueListFilter): Promise<IssueRow[]> {
    const where = await this.listConditions(filter);
    if (!where) return [];
    const { params, conditions } = where;
    const column = ISSUE_SORTS[filter.sort];
    const offset = params.push(filter.offset);
    const limit = params.push(filter.limit);
    // The page is chosen first, so the per-issue joins run for its rows only, not for every match.
    return this.database.query<IssueRow>(
      `SELECT ${ISSUE_COLUMNS} FROM (
         SELECT * FROM issues.issues i WHERE ${conditions.join(' AND ')}
         ORDER BY i.${column} DESC, i.id DESC OFFSET $${offset} LIMIT $${limit}
       ) i ${ISSUE_JOINS}
       ORDER BY i.${column} DESC, i.id DESC`,
      params,
    );
  }

  /** How many issues the list's search matches (Sentry's `X-Hits`), counted up to `max`. */
  async count(filter: Omit<IssueListFilter, 'sort' | 'offset' | 'limit'>, max: number): Promise<number> {
    const where = await this.listConditions(filter);
    if (!where) return 0;
    const { params, conditions } = where;
    const [row] = await this.database.query<{ hits: number }>(
      `SELECT count(*)::int AS hits FROM (SELECT 1 FROM issues.issues i WHERE ${conditions.join(' AND ')} LIMIT $${params.push(max)}) matches`,
      params,
    );
    return row.hits;
  }

  /** Each issue's events within the range, from its graph counts (see `rangeBuckets`). */
  async rangeCounts(issueIds: readonly string[], range: IssueTimeRange): Promise<Map<string, number>> {
    if (issueIds.length === 0) return new Map();
    const { resolution, from } = this.rangeBuckets(range);
    const rows = await this.database.query<{ issue_id: string; count: string }>(
      `SELECT issue_id::text AS issue_id, sum(count)::text AS count FROM issues.issue_stats
       WHERE issue_id = ANY($1::bigint[]) AND resolution = $2 AND bucket >= $3::timestamptz AND bucket < $4::timestamptz GROUP BY issue_id`,
      [issueIds, resolution, from, range.end],
    );
    return new Map(rows.map((row) => [row.issue_id, Number(row.count)]));
  }

  /**
   * The graph buckets that answer for a range: hourly ones while they are kept (the last two
   * days), daily ones before. A bucket that begins in the range counts whole, so a range is
   * answered to the hour (or to the day, for one that starts more than two days ago).
   */
  private rangeBuckets(range: IssueTimeRange): { resolution: '1h' | '1d'; from: string } {
    const start = Date.parse(range.start);
    // The first hour is kept whole only if it began within the hourly counts' lifetime.
    const resolution = start - BUCKET_MS['1h'] >= this.clock.now().getTime() - HOURLY_STATS_KEPT_MS ? '1h' : '1d';
    const size = BUCKET_MS[resolution];
    return { resolution, from: new Date(start - (start % size)).toISOString() };
  }

  /** The conditions (and their parameters) of a list, or null when the organization has none of the projects. */
  private async listConditions(filter: Omit<IssueListFilter, 'sort' | 'offset' | 'limit'>): Promise<{ params: unknown[]; conditions: string[] } | null> {
    // The organization's projects are read first (they are the list's tenancy check): with their
    // ids in hand the planner reads only their issues, whatever other organizations hold.
    const projectIds = await this.projectIds(filter.organizationId, filter.projectIds);
    if (projectIds.length === 0) return null;
    const params: unknown[] = [];
    // One project is named as such, so its issues are read in order from the project index.
    const conditions = [
      NOT_BEING_REMOVED,
      projectIds.length === 1 ? `i.project_id = $${params.push(projectIds[0])}::bigint` : `i.project_id = ANY($${params.push(projectIds)}::bigint[])`,
    ];
    const latestReleases = searchesLatestRelease(filter.search) ? [...(await latestProjectReleases(this.database, projectIds)).values()] : [];
    conditions.push(...issueSearchConditions(filter.search, { params, organizationId: filter.organizationId, latestReleases, range: filter.range }));
    if (filter.range) {
      // Issues with events in the range: last seen in or after it (cheap, on the row), and a graph bucket in it.
      const { resolution, from } = this.rangeBuckets(filter.range);
      const start = `$${params.push(from)}::timestamptz`;
      conditions.push(`i.last_seen >= ${start}`);
      // A range up to now holds an event of every issue last seen in it; an earlier one needs a bucket.
      if (Date.parse(filter.range.end) < this.clock.now().getTime()) {
        conditions.push(
          `EXISTS (SELECT 1 FROM issues.issue_stats s WHERE s.issue_id = i.id AND s.resolution = $${params.push(resolution)} AND s.bucket >= ${start} AND s.bucket < $${params.push(filter.range.end)}::timestamptz)`,
        );
      }
    }
    return { params, conditions };
  }

  /** The organization's projects (of these ones, when given). */
  private async projectIds(organizationId: string, only: readonly string[] | undefined): Promise<string[]> {
    const rows = await this.database.query<{ id: string }>(
      `SELECT id::text AS id FROM projects.project_directory WHERE organization_id = $1::bigint AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
      [organizationId, only ?? null],
    );
    return rows.map((row) => row.id);
  }

  /** Each issue's event counts in these windows, ending with the bucket that holds `now`. */
  async stats(issueIds: readonly string[], graphs: readonly IssueStatsWindow[]): Promise<Map<string, Record<string, IssueStatsSeries>>> {
    const result = new Map<string, Record<string, IssueStatsSeries>>();
    if (issueIds.length === 0 || graphs.length === 0) return result;
    const now = this.clock.now().getTime();
    const windows = graphs.map(({ name: period, resolution, buckets }) => {
      const size = BUCKET_MS[resolution];
      const last = now - (now % size);
      return { period, resolution, size, first: last - (buckets - 1) * size, buckets };
    });
    const since = new Map<string, number>();
    for (const { resolution, first } of windows) since.set(resolution, Math.min(first, since.get(resolution) ?? first));
    // Each resolution's period named as such, so only its days' partitions are read.
    const params: unknown[] = [issueIds];
    const periods = [...since].map(
      ([resolution, first]) => `(s.resolution = $${params.push(resolution)} AND s.bucket >= $${params.push(new Date(first).toISOString())}::timestamptz)`,
    );
    const rows = await this.database.query<{ issue_id: string; resolution: string; bucket: Date; count: string }>(
      `SELECT s.issue_id::text AS issue_id, s.resolution, s.bucket, s.count::text AS count
       FROM issues.issue_stats s WHERE s.issue_id = ANY($1::bigint[]) AND (${periods.join(' OR ')})`,
      params,
    );
    for (const id of issueIds) {
      result.set(
        id,
        Object.fromEntries(
          windows.map(({ period, size, first, buckets }) => [
            period,
            Array.from({ length: buckets }, (_, index): [number, number] => [(first + index * size) / 1000, 0]),
          ]),
        ),
      );
    }
    for (const row of rows) {
      const at = new Date(row.bucket).getTime();
      for (const { period, resolution, size, first, buckets } of windows) {
        const index = (at - first) / size;
        if (resolution === row.resolution && index >= 0 && index < buckets) {
          (result.get(row.issue_id) as Record<string, IssueStatsSeries>)[period][index][1] += Number(row.count);
        }
      }
    }
    return result;
  }

  /** The issue's tag keys (or the one asked for), by key. */
  async tagKeys(issueId: string, keys?: readonly string[]): Promise<IssueTagKeyRow[]> {
    return this.database.query<IssueTagKeyRow>(
      `SELECT key, sum(times_seen)::text AS total_values, count(*)::int AS unique_values FROM issues.issue_tag_values
       WHERE issue_id = $1::bigint AND ($2::text[] IS NULL OR key = ANY($2::text[])) GROUP BY key ORDER BY key`,
      [issueId, keys ?? null],
    );
  }

  /** Whether any of the issue's events carried the tag key. */
  async hasTagKey(issueId: string, key: string): Promise<boolean> {
    const [row] = await this.database.query(`SELECT 1 FROM issues.issue_tag_values WHERE issue_id = $1::bigint AND key = $2 LIMIT 1`, [issueId, key]);
    return row !== undefined;
  }

  /** The most frequent values of each of these tag keys of the issue. */
  async topTagValues(issueId: string, keys: readonly string[], limit: number): Promise<IssueTagValueRow[]> {
    return this.database.query<IssueTagValueRow>(
      `SELECT t.key, t.value, t.times_seen::text AS times_seen, t.first_seen, t.last_seen
       FROM unnest($2::text[]) AS k (key)
       CROSS JOIN LATERAL (
         SELECT * FROM issues.issue_tag_values v WHERE v.issue_id = $1::bigint AND v.key = k.key
         ORDER BY v.times_seen DESC, v.last_seen DESC, v.value LIMIT $3
       ) t`,
      [issueId, keys, limit],
    );
  }

  /** A page of the values of one tag key of the issue. */
  async tagValues(issueId: string, key: string, sort: IssueTagValueSort, offset: number, limit: number): Promise<IssueTagValueRow[]> {
    return this.database.query<IssueTagValueRow>(
      `SELECT key, value, times_seen::text AS times_seen, first_seen, last_seen FROM issues.issue_tag_values
       WHERE issue_id = $1::bigint AND key = $2
       ORDER BY ${ISSUE_TAG_VALUE_SORTS[sort]} DESC, value OFFSET $3 LIMIT $4`,
      [issueId, key, offset, limit],
    );
  }

  /** Which of these numeric ids are issues of the organization (and project, when given). */
  async existingIds(organizationId: string, ids: readonly string[], projectId?: string, sql: Sql = this.database): Promise<string[]> {
    const params: unknown[] = [organizationId, ids];
    const project = projectId ? `AND i.project_id = $${params.push(projectId)}::bigint` : '';
    const rows = await sql.query<{ id: string }>(
      `SELECT i.id::text AS id FROM issues.issues i WHERE ${ORGANIZATION_ISSUES} AND i.id = ANY($2::bigint[]) ${project}`,
      params,
    );
    return rows.map((row) => row.id);
  }

  /** The events of an issue, newest first. */
  async events(issueId: string, offset: number, limit: number): Promise<ErrorEventRow[]> {
    return this.database.query<ErrorEventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${ISSUE_EVENTS}
       ORDER BY e.occurred_at DESC, e.id DESC OFFSET $2 LIMIT $3`,
      [issueId, offset, limit],
    );
  }

  /** The issue's events with these ids, in the order given. */
  async eventsByIds(issueId: string, eventIds: readonly string[]): Promise<ErrorEventRow[]> {
    const rows = await this.database.query<ErrorEventRow>(`SELECT ${EVENT_COLUMNS} FROM ${ISSUE_EVENTS} AND e.event_id = ANY($2::text[])`, [issueId, eventIds]);
    const byId = new Map(rows.map((row) => [row.event_id, row]));
    return eventIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** The events of a project, newest first. */
  async projectEvents(projectId: string, offset: number, limit: number): Promise<ErrorEventRow[]> {
    return this.database.query<ErrorEventRow>(
      `SELECT ${EVENT_COLUMNS} FROM issues.error_events e WHERE e.project_id = $1::bigint
       ORDER BY e.occurred_at DESC, e.id DESC OFFSET $2 LIMIT $3`,
      [projectId, offset, limit],
    );
  }

  /** The newest or oldest event of the issue. */
  async edgeEvent(issue: Pick<IssueRow, 'id' | 'first_seen' | 'last_seen'>, which: 'latest' | 'oldest'): Promise<ErrorEventRow | null> {
    const direction = which === 'latest' ? 'DESC' : 'ASC';
    const read = async ({ from, until }: { from: Date; until?: Date }) => {
      const params: unknown[] = [issue.id, from];
      const [row] = await this.database.query<ErrorEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM issues.error_events e
         WHERE e.issue_id = $1::bigint AND e.received_at >= $2 ${until ? `AND e.received_at <= $${params.push(until)}` : ''}
         ORDER BY e.occurred_at ${direction}, e.id ${direction} LIMIT 1`,
        params,
      );
      return row ?? null;
    };
    // The newest event occurred at last_seen.
    if (which === 'latest') return read(receivedRange(issue.last_seen, issue.last_seen));
    // The oldest at first_seen, unless retention dropped it: then the oldest kept may lie in any day since.
    const first = await read(receivedRange(issue.first_seen, issue.first_seen));
    return first && first.occurred_at.getTime() <= issue.first_seen.getTime() ? first : read(receivedRange(issue.first_seen));
  }

  /** An event by id, of the given issue or project. */
  async event(scope: { issueId?: string; projectId?: string }, eventId: string): Promise<ErrorEventRow | null> {
    const id = normalizeEventId(eventId);
    if (!id) return null;
    const params: unknown[] = [id];
    const issue = scope.issueId ? `$${params.push(scope.issueId)}::bigint` : undefined;
    const project = scope.projectId ? `$${params.push(scope.projectId)}::bigint` : issue && `(SELECT i.project_id FROM issues.issues i WHERE i.id = ${issue})`;
    if (!project) return null;
    // The id's claims (partitioned by day: a probe of each day's primary key) hold its row's id and
    // time received, so the row is read from one day's primary key (LIMIT keeps that a lookup per
    // claim, never a join over every day). An id stored again after the claims' window (see
    // IssueIngestionService) answers its newest event.
    const [row] = await this.database.query<ErrorEventRow>(
      `SELECT e.* FROM issues.event_ids k
       CROSS JOIN LATERAL (SELECT ${EVENT_COLUMNS} FROM issues.error_events e
                           WHERE e.id = k.id AND e.received_at = k.received_at ${issue ? `AND e.issue_id = ${issue}` : ''} LIMIT 1) e
       WHERE k.project_id = ${project} AND k.event_id = $1 ORDER BY k.claimed_on DESC LIMIT 1`,
      params,
    );
    return row ?? null;
  }

  /**
   * The ids of the events just older (previous) and just newer (next) in the same issue. The
   * previous one is looked for in the day before this event first, and in every day since the
   * issue was first seen only when that day does not answer: each read binds its bounds (see
   * receivedRange), so PostgreSQL plans a few days' partitions rather than every kept day's.
   */
  async neighbours(event: ErrorEventRow): Promise<{ previous: string | null; next: string | null }> {
    const near = new Date(event.occurred_at.getTime() - DAY_MS);
    const read = (previousSince: Date) =>
      this.database.query<{ previous: string | null; previous_at: Date | null; next: string | null; first_seen: Date }>(
        `SELECT p.event_id AS previous, p.occurred_at AS previous_at, n.event_id AS next, i.first_seen
         FROM issues.error_events e
         JOIN issues.issues i ON i.id = e.issue_id
         LEFT JOIN LATERAL (
           SELECT o.event_id, o.occurred_at FROM issues.error_events o
           WHERE o.issue_id = e.issue_id AND o.received_at >= $5 AND o.received_at <= $6 AND (o.occurred_at, o.id) < (e.occurred_at, e.id)
           ORDER BY o.occurred_at DESC, o.id DESC LIMIT 1) p ON true
         LEFT JOIN LATERAL (
           SELECT o.event_id FROM issues.error_events o
           WHERE o.issue_id = e.issue_id AND o.received_at >= $7 AND (o.occurred_at, o.id) > (e.occurred_at, e.id)
           ORDER BY o.occurred_at, o.id LIMIT 1) n ON true
         WHERE e.id = (SELECT k.id FROM issues.event_ids k WHERE k.project_id = $1::bigint AND k.event_id = $2 AND k.claimed_on = $4) AND e.received_at = $3`,
        [
          event.project_id,
          event.event_id,
          event.received_at,
          dayOf(event.received_at),
          receivedRange(previousSince).from,
          receivedRange(event.occurred_at, event.occurred_at).until,
          receivedRange(event.occurred_at).from,
        ],
      );
    const [row] = await read(near);
    if (!row) return { previous: null, next: null };
    // An event older than `near` may have arrived after one found in that day: only one found in it answers.
    const answered = row.previous_at ? row.previous_at.getTime() >= near.getTime() : row.first_seen.getTime() >= near.getTime();
    if (answered) return { previous: row.previous, next: row.next };
    const [all] = await read(row.first_seen);
    return { previous: all?.previous ?? null, next: row.next };
  }
}
