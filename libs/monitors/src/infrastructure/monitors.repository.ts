import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { CheckInStatus, MonitorConfig, MonitorEnvironmentStatus } from '../domain';

export interface MonitorRow {
  id: string;
  guid: string;
  organization_id: string;
  project_id: string;
  slug: string;
  name: string;
  status: 'active' | 'disabled';
  is_muted: boolean;
  config: MonitorConfig;
  date_created: Date;
}

export interface MonitorEnvironmentRow {
  id: string;
  monitor_id: string;
  environment: string;
  status: MonitorEnvironmentStatus;
  is_muted: boolean;
  last_checkin: Date | null;
  next_checkin: Date | null;
  next_checkin_latest: Date | null;
  date_created: Date;
}

export interface CheckInRow {
  id: string;
  guid: string;
  monitor_id: string;
  monitor_environment_id: string;
  environment: string;
  status: CheckInStatus;
  duration: number | null;
  date_created: Date;
  date_updated: Date;
  expected_time: Date | null;
  timeout_at: Date | null;
  monitor_config: MonitorConfig;
}

/** A due environment as the sweep claims it, with its monitor. */
export interface DueEnvironmentRow extends MonitorEnvironmentRow {
  organization_id: string;
  project_id: string;
  slug: string;
  name: string;
  guid: string;
  monitor_muted: boolean;
  config: MonitorConfig;
}

const MONITOR_COLUMNS =
  'id::text AS id, guid::text AS guid, organization_id::text AS organization_id, project_id::text AS project_id, slug, name, status, is_muted, config, date_created';
const ENVIRONMENT_COLUMNS = `e.id::text AS id, e.monitor_id::text AS monitor_id, e.environment, e.status, e.is_muted, e.last_checkin, e.next_checkin, e.next_checkin_latest, e.date_created`;
const CHECK_IN_COLUMNS = `c.id::text AS id, c.guid::text AS guid, c.monitor_id::text AS monitor_id, c.monitor_environment_id::text AS monitor_environment_id, e.environment,
  c.status, c.duration, c.date_created, c.date_updated, c.expected_time, c.timeout_at, c.monitor_config`;
const DUE_COLUMNS = `${ENVIRONMENT_COLUMNS}, m.organization_id::text AS organization_id, m.project_id::text AS project_id, m.slug, m.name, m.guid::text AS guid, m.is_muted AS monitor_muted, m.config`;

export interface MonitorListFilter {
  readonly organizationId: string;
  readonly projectIds?: readonly string[];
  readonly query?: string;
  readonly offset: number;
  readonly limit: number;
}

@Injectable()
export class MonitorsRepository {
  async find(sql: Sql, organizationId: string, slug: string, lock = false): Promise<MonitorRow | undefined> {
    const [row] = await sql.query<MonitorRow>(
      `SELECT ${MONITOR_COLUMNS} FROM monitors.monitors WHERE organization_id = $1 AND slug = $2${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, slug],
    );
    return row;
  }

  /** By slug, or by id (the monitor's UUID) as Sentry's routes take either. */
  async findBySlugOrId(sql: Sql, organizationId: string, slugOrId: string, lock = false): Promise<MonitorRow | undefined> {
    const guid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(slugOrId) ? slugOrId : null;
    const [row] = await sql.query<MonitorRow>(
      `SELECT ${MONITOR_COLUMNS} FROM monitors.monitors WHERE organization_id = $1 AND (slug = $2 OR guid = $3::uuid)${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, slugOrId, guid],
    );
    return row;
  }

  async count(sql: Sql, organizationId: string): Promise<number> {
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitors.monitors WHERE organization_id = $1`, [organizationId]);
    return n;
  }

  /** Serialises the creation of one organization's monitors, so its budget holds under concurrent upserts. */
  async lockOrganization(sql: Sql, organizationId: string): Promise<void> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended('monitors.organization:' || $1::text, 0))`, [organizationId]);
  }

  async insert(
    sql: Sql,
    monitor: {
      guid: string;
      organizationId: string;
      projectId: string;
      slug: string;
      name: string;
      status: string;
      isMuted: boolean;
      config: MonitorConfig;
      at: Date;
    },
  ): Promise<MonitorRow | undefined> {
    const [row] = await sql.query<MonitorRow>(
      `INSERT INTO monitors.monitors (guid, organization_id, project_id, slug, name, status, is_muted, config, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (organization_id, slug) DO NOTHING RETURNING ${MONITOR_COLUMNS}`,
      [
        monitor.guid,
        monitor.organizationId,
        monitor.projectId,
        monitor.slug,
        monitor.name,
        monitor.status,
        monitor.isMuted,
        JSON.stringify(monitor.config),
        monitor.at,
      ],
    );
    return row;
  }

  async update(
    sql: Sql,
    id: string,
    changes: { slug: string; name: string; status: string; isMuted: boolean; config: MonitorConfig; projectId: string },
  ): Promise<MonitorRow | undefined> {
    const [row] = await sql.query<MonitorRow>(
      `UPDATE monitors.monitors SET slug = $2, name = $3, status = $4, is_muted = $5, config = $6, project_id = $7 WHERE id = $1 RETURNING ${MONITOR_COLUMNS}`,
      [id, changes.slug, changes.name, changes.status, changes.isMuted, JSON.stringify(changes.config), changes.projectId],
    );
    return row;
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.execute(`DELETE FROM monitors.monitors WHERE id = $1`, [id]);
  }

  async list(sql: Sql, filter: MonitorListFilter): Promise<MonitorRow[]> {
    const params: unknown[] = [filter.organizationId, filter.offset, filter.limit];
    const conditions = ['organization_id = $1'];
    if (filter.projectIds && filter.projectIds.length > 0) {
      params.push(filter.projectIds);
      conditions.push(`project_id = ANY($${params.length}::bigint[])`);
    }
    if (filter.query) {
      params.push(filter.query);
      conditions.push(`(strpos(lower(name), lower($${params.length})) > 0 OR strpos(slug, lower($${params.length})) > 0)`);
    }
    return sql.query<MonitorRow>(
      `SELECT ${MONITOR_COLUMNS} FROM monitors.monitors WHERE ${conditions.join(' AND ')} ORDER BY name, id OFFSET $2 LIMIT $3`,
      params,
    );
  }

  async environmentsOf(sql: Sql, monitorIds: readonly string[]): Promise<MonitorEnvironmentRow[]> {
    if (monitorIds.length === 0) return [];
    return sql.query<MonitorEnvironmentRow>(
      `SELECT ${ENVIRONMENT_COLUMNS} FROM monitors.monitor_environments e WHERE e.monitor_id = ANY($1::bigint[]) ORDER BY e.last_checkin DESC NULLS LAST, e.id`,
      [monitorIds],
    );
  }

  async environmentCount(sql: Sql, monitorId: string): Promise<number> {
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitors.monitor_environments WHERE monitor_id = $1`, [monitorId]);
    return n;
  }

  /** The environment's row, locked; created first if it is new and `mayCreate` allows (answers whether it was). */
  async lockEnvironment(
    sql: Sql,
    monitorId: string,
    environment: string,
    at: Date,
    mayCreate: () => Promise<boolean>,
  ): Promise<{ row?: MonitorEnvironmentRow; created: boolean }> {
    const select = () =>
      sql.query<MonitorEnvironmentRow>(
        `SELECT ${ENVIRONMENT_COLUMNS} FROM monitors.monitor_environments e WHERE e.monitor_id = $1 AND e.environment = $2 FOR UPDATE`,
        [monitorId, environment],
      );
    const [found] = await select();
    if (found || !(await mayCreate())) return { row: found, created: false };
    const [inserted] = await sql.query<MonitorEnvironmentRow>(
      `INSERT INTO monitors.monitor_environments AS e (monitor_id, environment, date_created) VALUES ($1, $2, $3)
       ON CONFLICT (monitor_id, environment) DO NOTHING RETURNING ${ENVIRONMENT_COLUMNS}`,
      [monitorId, environment, at],
    );
    if (inserted) return { row: inserted, created: true };
    return { row: (await select())[0], created: false };
  }

  async lockEnvironmentsOf(sql: Sql, monitorId: string): Promise<MonitorEnvironmentRow[]> {
    return sql.query<MonitorEnvironmentRow>(
      `SELECT ${ENVIRONMENT_COLUMNS} FROM monitors.monitor_environments e WHERE e.monitor_id = $1 ORDER BY e.id FOR UPDATE`,
      [monitorId],
    );
  }

  /** After a new check-in: when it came, and when the next is expected. */
  async scheduled(sql: Sql, environmentId: string, times: { lastCheckIn: Date | null; next: Date; latest: Date }): Promise<void> {
    await sql.execute(
      `UPDATE monitors.monitor_environments SET last_checkin = COALESCE($2, last_checkin), next_checkin = $3, next_checkin_latest = $4 WHERE id = $1`,
      [environmentId, times.lastCheckIn, times.next, times.latest],
    );
  }

  async setEnvironmentState(sql: Sql, environmentId: string, state: { status: MonitorEnvironmentStatus; isMuted: boolean }): Promise<void> {
    await sql.execute(`UPDATE monitors.monitor_environments SET status = $2, is_muted = $3 WHERE id = $1`, [environmentId, state.status, state.isMuted]);
  }

  /** Check-ins of the monitor created since `since`, counted up to `limit` (so the count costs at most that many index entries). */
  async recentCheckIns(sql: Sql, monitorId: string, since: Date, limit: number): Promise<number> {
    const [{ n }] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM monitors.check_ins WHERE monitor_id = $1 AND date_created > $2 LIMIT $3) recent`,
      [monitorId, since, limit],
    );
    return n;
  }

  async findCheckIn(sql: Sql, monitorId: string, guid: string): Promise<CheckInRow | undefined> {
    const [row] = await sql.query<CheckInRow>(
      `SELECT ${CHECK_IN_COLUMNS} FROM monitors.check_ins c JOIN monitors.monitor_environments e ON e.id = c.monitor_environment_id
       WHERE c.monitor_id = $1 AND c.guid = $2 FOR UPDATE OF c`,
      [monitorId, guid],
    );
    return row;
  }

  /** Answers the new row's id, or null when the check-in id was taken meanwhile (a concurrent repeat). */
  async insertCheckIn(
    sql: Sql,
    checkIn: {
      guid: string;
      monitorId: string;
      environmentId: string;
      status: CheckInStatus;
      durationMs: number | null;
      at: Date;
      expectedTime: Date | null;
      timeoutAt: Date | null;
      config: MonitorConfig;
    },
  ): Promise<string | null> {
    const rows = await sql.query<{ id: string }>(
      `INSERT INTO monitors.check_ins (guid, monitor_id, monitor_environment_id, status, duration, date_created, date_updated, expected_time, timeout_at, monitor_config)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9) ON CONFLICT (monitor_id, guid) DO NOTHING RETURNING id`,
      [
        checkIn.guid,
        checkIn.monitorId,
        checkIn.environmentId,
        checkIn.status,
        checkIn.durationMs,
        checkIn.at,
        checkIn.expectedTime,
        checkIn.timeoutAt,
        JSON.stringify(checkIn.config),
      ],
    );
    return rows[0] ? String(rows[0].id) : null;
  }

  async closeCheckIn(sql: Sql, id: string, status: CheckInStatus, durationMs: number | null, at: Date): Promise<void> {
    await sql.execute(`UPDATE monitors.check_ins SET status = $2, duration = $3, date_updated = $4, timeout_at = NULL WHERE id = $1`, [
      id,
      status,
      durationMs,
      at,
    ]);
  }

  async listCheckIns(sql: Sql, monitorId: string, environments: readonly string[], offset: number, limit: number): Promise<CheckInRow[]> {
    return sql.query<CheckInRow>(
      `SELECT ${CHECK_IN_COLUMNS} FROM monitors.check_ins c JOIN monitors.monitor_environments e ON e.id = c.monitor_environment_id
       WHERE c.monitor_id = $1 AND (cardinality($2::text[]) = 0 OR e.environment = ANY($2::text[]))
       ORDER BY c.date_created DESC, c.id DESC OFFSET $3 LIMIT $4`,
      [monitorId, environments, offset, limit],
    );
  }

  /** The newest check-ins of each monitor (for the list's timeline), at most `perMonitor` each. */
  async latestCheckIns(sql: Sql, monitorIds: readonly string[], perMonitor: number): Promise<CheckInRow[]> {
    if (monitorIds.length === 0) return [];
    return sql.query<CheckInRow>(
      `SELECT recent.* FROM unnest($1::bigint[]) AS m (id) CROSS JOIN LATERAL (
         SELECT ${CHECK_IN_COLUMNS} FROM monitors.check_ins c JOIN monitors.monitor_environments e ON e.id = c.monitor_environment_id
         WHERE c.monitor_id = m.id ORDER BY c.date_created DESC, c.id DESC LIMIT $2) recent`,
      [monitorIds, perMonitor],
    );
  }

  /** Check-ins per status in buckets of `bucketSeconds` between `since` and `until` (the stats endpoint). */
  async stats(
    sql: Sql,
    monitorId: string,
    environments: readonly string[],
    since: Date,
    until: Date,
    bucketSeconds: number,
  ): Promise<Array<{ bucket: number; status: CheckInStatus; count: number; duration: number | null }>> {
    return sql.query(
      `SELECT (floor(extract(epoch FROM c.date_created) / $5) * $5)::bigint AS bucket, c.status, count(*)::int AS count, avg(c.duration)::float8 AS duration
       FROM monitors.check_ins c JOIN monitors.monitor_environments e ON e.id = c.monitor_environment_id
       WHERE c.monitor_id = $1 AND c.date_created >= $2 AND c.date_created < $3 AND (cardinality($4::text[]) = 0 OR e.environment = ANY($4::text[]))
       GROUP BY 1, 2`,
      [monitorId, since, until, environments, bucketSeconds],
    );
  }

  /**
   * Claims environments whose next check-in is overdue (`next_checkin_latest <= now`) of active
   * monitors. The partial index on next_checkin_latest keeps this a range scan of at most `limit`
   * due rows, whatever the number of monitors; rows another worker holds are skipped.
   */
  async claimMissed(sql: Sql, now: Date, limit: number): Promise<DueEnvironmentRow[]> {
    return sql.query<DueEnvironmentRow>(
      `SELECT ${DUE_COLUMNS} FROM monitors.monitor_environments e JOIN monitors.monitors m ON m.id = e.monitor_id
       WHERE e.id IN (
         SELECT d.id FROM monitors.monitor_environments d JOIN monitors.monitors dm ON dm.id = d.monitor_id
         WHERE d.next_checkin_latest <= $1 AND dm.status = 'active' ORDER BY d.next_checkin_latest, d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
       ORDER BY e.id`,
      [now, limit],
    );
  }

  /**
   * Claims environments with runs in progress past their time-out (the partial index on
   * in-progress check-ins' timeout_at), locking the environment rows first, as check-ins do.
   */
  async claimTimedOut(sql: Sql, now: Date, limit: number): Promise<DueEnvironmentRow[]> {
    return sql.query<DueEnvironmentRow>(
      `SELECT ${DUE_COLUMNS} FROM monitors.monitor_environments e JOIN monitors.monitors m ON m.id = e.monitor_id
       WHERE e.id IN (
         SELECT d.id FROM monitors.monitor_environments d
         WHERE d.id IN (SELECT c.monitor_environment_id FROM monitors.check_ins c WHERE c.status = 'in_progress' AND c.timeout_at <= $1 ORDER BY c.timeout_at, c.id LIMIT $2)
         ORDER BY d.id FOR UPDATE OF d SKIP LOCKED)
       ORDER BY e.id`,
      [now, limit],
    );
  }

  /** Marks the claimed environments' overdue runs timed out (the predicate checked again under the lock). */
  async timeOut(sql: Sql, environmentIds: readonly string[], now: Date): Promise<CheckInRow[]> {
    if (environmentIds.length === 0) return [];
    return sql.query<CheckInRow>(
      `WITH timed_out AS (
         UPDATE monitors.check_ins SET status = 'timeout', date_updated = $2, timeout_at = NULL
         WHERE monitor_environment_id = ANY($1::bigint[]) AND status = 'in_progress' AND timeout_at <= $2 RETURNING *)
       SELECT ${CHECK_IN_COLUMNS} FROM timed_out c JOIN monitors.monitor_environments e ON e.id = c.monitor_environment_id ORDER BY c.date_created, c.id`,
      [environmentIds, now],
    );
  }

  async anyDue(sql: Sql, now: Date): Promise<boolean> {
    const [row] = await sql.query<{ due: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM monitors.monitor_environments e JOIN monitors.monitors m ON m.id = e.monitor_id WHERE e.next_checkin_latest <= $1 AND m.status = 'active')
           OR EXISTS (SELECT 1 FROM monitors.check_ins WHERE status = 'in_progress' AND timeout_at <= $1) AS due`,
      [now],
    );
    return row.due;
  }

  /**
   * Keeps a closing check-in whose monitor does not exist yet, unless the organization already
   * keeps `limit` of them; older ones than `since` go first. Answers whether it was kept.
   */
  async keepUnpaired(
    sql: Sql,
    unpaired: {
      organizationId: string;
      projectId: string;
      monitorSlug: string;
      guid: string;
      environment: string;
      status: string;
      durationMs: number | null;
      at: Date;
    },
    since: Date,
    limit: number,
  ): Promise<boolean> {
    await sql.execute(`DELETE FROM monitors.unpaired_check_ins WHERE organization_id = $1 AND received_at < $2`, [unpaired.organizationId, since]);
    const [{ n }] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM monitors.unpaired_check_ins WHERE organization_id = $1 LIMIT $2) kept`,
      [unpaired.organizationId, limit],
    );
    if (n >= limit) return false;
    await sql.execute(
      `INSERT INTO monitors.unpaired_check_ins (organization_id, monitor_slug, guid, project_id, environment, status, duration, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [
        unpaired.organizationId,
        unpaired.monitorSlug,
        unpaired.guid,
        unpaired.projectId,
        unpaired.environment,
        unpaired.status,
        unpaired.durationMs,
        unpaired.at,
      ],
    );
    return true;
  }

  /** Takes the kept closing check-in of this run, if one came first (and not before `since`). */
  async takeUnpaired(
    sql: Sql,
    organizationId: string,
    monitorSlug: string,
    guid: string,
    since: Date,
  ): Promise<{ project_id: string; environment: string; status: 'ok' | 'error'; duration: number | null; received_at: Date } | undefined> {
    const [row] = await sql.query<{ project_id: string; environment: string; status: 'ok' | 'error'; duration: number | null; received_at: Date }>(
      `DELETE FROM monitors.unpaired_check_ins WHERE organization_id = $1 AND monitor_slug = $2 AND guid = $3 AND received_at >= $4
       RETURNING project_id::text AS project_id, environment, status, duration, received_at`,
      [organizationId, monitorSlug, guid, since],
    );
    return row;
  }

  /** A project of the organization by slug or id, with its slug. */
  async project(sql: Sql, organizationId: string, idOrSlug: string): Promise<{ id: string; slug: string; name: string; platform: string | null } | undefined> {
    const [row] = await sql.query<{ id: string; slug: string; name: string; platform: string | null }>(
      `SELECT id::text AS id, slug, name, platform FROM projects.project_directory WHERE organization_id = $1 AND (slug = $2 OR id::text = $2)`,
      [organizationId, idOrSlug],
    );
    return row;
  }

  async projectsById(sql: Sql, projectIds: readonly string[]): Promise<Map<string, { id: string; slug: string; name: string; platform: string | null }>> {
    if (projectIds.length === 0) return new Map();
    const rows = await sql.query<{ id: string; slug: string; name: string; platform: string | null }>(
      `SELECT id::text AS id, slug, name, platform FROM projects.project_directory WHERE id = ANY($1::bigint[])`,
      [[...new Set(projectIds)]],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
}
