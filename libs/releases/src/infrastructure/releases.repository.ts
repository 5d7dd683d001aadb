import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface ReleaseRow {
  id: string;
  organization_id: string;
  version: string;
  ref: string | null;
  url: string | null;
  status: string;
  date_created: Date;
  date_started: Date | null;
  date_released: Date | null;
  /** The release's projects with their counts, by project id. */
  projects: Array<{ project_id: string; new_groups: number; events: string; first_event: string | null; last_event: string | null }>;
  commit_count: number;
  last_commit: {
    id: string;
    repository: string | null;
    message: string | null;
    author_name: string | null;
    author_email: string | null;
    date_created: string | null;
  } | null;
  deploy_count: number;
  last_deploy: DeployJson | null;
}

export interface DeployJson {
  id: string;
  environment: string;
  name: string | null;
  url: string | null;
  date_started: string | null;
  date_finished: string;
}

export interface ReleaseChanges {
  ref?: string | null;
  url?: string | null;
  dateStarted?: Date | null;
  dateReleased?: Date | null;
  status?: 'open' | 'archived';
}

export interface CommitInput {
  id: string;
  repository: string | null;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  timestamp: Date | null;
}

export interface ReleaseSighting {
  organizationId: string;
  projectId: string;
  version: string;
  events: number;
  newGroups: number;
  firstEvent: string;
  lastEvent: string;
}

/** Everything a release shows, in one statement: its projects with counts, last commit and last deploy. */
const RELEASE_COLUMNS = `
  r.id::text AS id, r.organization_id::text AS organization_id, r.version, r.ref, r.url, r.status, r.date_created, r.date_started, r.date_released,
  COALESCE((SELECT json_agg(json_build_object('project_id', p.project_id::text, 'new_groups', p.new_groups, 'events', p.events::text,
                                              'first_event', p.first_event, 'last_event', p.last_event) ORDER BY p.project_id)
            FROM releases.release_projects p WHERE p.release_id = r.id), '[]'::json) AS projects,
  (SELECT count(*)::int FROM releases.release_commits c WHERE c.release_id = r.id) AS commit_count,
  (SELECT json_build_object('id', c.commit_id, 'repository', c.repository, 'message', c.message, 'author_name', c.author_name,
                            'author_email', c.author_email, 'date_created', c.date_created)
     FROM releases.release_commits c WHERE c.release_id = r.id ORDER BY c.position LIMIT 1) AS last_commit,
  (SELECT count(*)::int FROM releases.deploys d WHERE d.release_id = r.id) AS deploy_count,
  (SELECT json_build_object('id', d.id::text, 'environment', d.environment, 'name', d.name, 'url', d.url,
                            'date_started', d.date_started, 'date_finished', d.date_finished)
     FROM releases.deploys d WHERE d.release_id = r.id ORDER BY d.date_finished DESC, d.id DESC LIMIT 1) AS last_deploy`;

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

@Injectable()
export class ReleasesRepository {
  async find(sql: Sql, organizationId: string, version: string): Promise<ReleaseRow | null> {
    const [row] = await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases.releases r WHERE r.organization_id = $1 AND r.version = $2`, [
      organizationId,
      version,
    ]);
    return row ?? null;
  }

  /** Newest first; `query` matches part of the version; `projectIds` keeps releases of any of those projects. */
  async list(
    sql: Sql,
    organizationId: string,
    filter: { query?: string; projectIds?: readonly string[] },
    offset: number,
    limit: number,
  ): Promise<ReleaseRow[]> {
    return sql.query<ReleaseRow>(
      `SELECT ${RELEASE_COLUMNS} FROM releases.releases r
       WHERE r.organization_id = $1
         AND ($2::text IS NULL OR r.version ILIKE '%' || $2 || '%')
         AND ($3::bigint[] IS NULL OR EXISTS (SELECT 1 FROM releases.release_projects p WHERE p.release_id = r.id AND p.project_id = ANY($3)))
       ORDER BY r.date_created DESC, r.id DESC OFFSET $4 LIMIT $5`,
      [organizationId, filter.query ? escapeLike(filter.query) : null, filter.projectIds ?? null, offset, limit],
    );
  }

  /** Creates the release, or answers the existing one; either way it gains the projects. */
  async createOrAddProjects(
    sql: Sql,
    organizationId: string,
    version: string,
    projectIds: readonly string[],
    changes: ReleaseChanges,
    now: Date,
  ): Promise<{ id: string; created: boolean }> {
    const [inserted] = await sql.query<{ id: string }>(
      `INSERT INTO releases.releases (organization_id, version, ref, url, date_started, date_released, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (organization_id, version) DO NOTHING RETURNING id::text`,
      [organizationId, version, changes.ref ?? null, changes.url ?? null, changes.dateStarted ?? null, changes.dateReleased ?? null, now],
    );
    const id =
      inserted?.id ??
      (await sql.query<{ id: string }>(`SELECT id::text FROM releases.releases WHERE organization_id = $1 AND version = $2`, [organizationId, version]))[0].id;
    await sql.execute(`INSERT INTO releases.release_projects (release_id, project_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [
      id,
      projectIds,
    ]);
    return { id, created: inserted !== undefined };
  }

  async update(sql: Sql, releaseId: string, changes: ReleaseChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [releaseId];
    const column = { ref: 'ref', url: 'url', dateStarted: 'date_started', dateReleased: 'date_released', status: 'status' } as const;
    for (const key of Object.keys(column) as Array<keyof typeof column>) {
      if (changes[key] === undefined) continue;
      params.push(changes[key]);
      sets.push(`${column[key]} = $${params.length}`);
    }
    if (sets.length) await sql.execute(`UPDATE releases.releases SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async delete(sql: Sql, releaseId: string): Promise<void> {
    await sql.execute(`DELETE FROM releases.releases WHERE id = $1`, [releaseId]);
  }

  /**
   * Replaces the release's commits; the first is the newest. Repositories the commits name are
   * registered on first sight, as Sentry does.
   */
  async setCommits(sql: Sql, organizationId: string, releaseId: string, commits: readonly CommitInput[], now: Date): Promise<void> {
    await sql.execute(`DELETE FROM releases.release_commits WHERE release_id = $1`, [releaseId]);
    if (commits.length === 0) return;
    const repositories = [...new Set(commits.map((c) => c.repository).filter((name): name is string => name !== null))].sort();
    await sql.execute(`INSERT INTO releases.repositories (organization_id, name, date_created) SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`, [
      organizationId,
      repositories,
      now,
    ]);
    await sql.execute(
      `INSERT INTO releases.release_commits (release_id, position, commit_id, repository, message, author_name, author_email, date_created)
       SELECT $1, c.position, c.id, c.repository, c.message, c.author_name, c.author_email, c.date_created
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
         AS c (position, id, repository, message, author_name, author_email, date_created)
       ON CONFLICT DO NOTHING`,
      [
        releaseId,
        commits.map((_, index) => index),
        commits.map((c) => c.id),
        commits.map((c) => c.repository),
        commits.map((c) => c.message),
        commits.map((c) => c.authorName),
        commits.map((c) => c.authorEmail),
        commits.map((c) => c.timestamp),
      ],
    );
  }

  async addDeploy(
    sql: Sql,
    releaseId: string,
    deploy: { environment: string; name: string | null; url: string | null; dateStarted: Date | null; dateFinished: Date },
  ): Promise<DeployJson> {
    const [row] = await sql.query<DeployJson>(
      `INSERT INTO releases.deploys (release_id, environment, name, url, date_started, date_finished) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id::text, environment, name, url, date_started, date_finished`,
      [releaseId, deploy.environment, deploy.name, deploy.url, deploy.dateStarted, deploy.dateFinished],
    );
    return row;
  }

  async listDeploys(sql: Sql, releaseId: string, offset: number, limit: number): Promise<DeployJson[]> {
    return sql.query<DeployJson>(
      `SELECT id::text, environment, name, url, date_started, date_finished FROM releases.deploys WHERE release_id = $1
       ORDER BY date_finished DESC, id DESC OFFSET $2 LIMIT $3`,
      [releaseId, offset, limit],
    );
  }

  /**
   * The releases a batch of events named: each created on first sight, and each project's counts
   * moved on. Rows are written in one order (version, project) so concurrent batches never deadlock.
   */
  async recordSightings(sql: Sql, sightings: readonly ReleaseSighting[], now: Date): Promise<void> {
    if (sightings.length === 0) return;
    const sorted = [...sightings].sort(
      (a, b) => a.organizationId.localeCompare(b.organizationId) || a.version.localeCompare(b.version) || a.projectId.localeCompare(b.projectId),
    );
    const columns = [
      sorted.map((s) => s.organizationId),
      sorted.map((s) => s.projectId),
      sorted.map((s) => s.version),
      sorted.map((s) => s.events),
      sorted.map((s) => s.newGroups),
      sorted.map((s) => s.firstEvent),
      sorted.map((s) => s.lastEvent),
    ];
    await sql.execute(
      `INSERT INTO releases.releases (organization_id, version, date_created)
       SELECT DISTINCT o, v, $3::timestamptz FROM unnest($1::bigint[], $2::text[]) AS s (o, v) ORDER BY o, v
       ON CONFLICT (organization_id, version) DO NOTHING`,
      [columns[0], columns[2], now],
    );
    await sql.execute(
      `INSERT INTO releases.release_projects AS p (release_id, project_id, events, new_groups, first_event, last_event)
       SELECT r.id, s.project_id, s.events, s.new_groups, s.first_event, s.last_event
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[])
         WITH ORDINALITY AS s (organization_id, project_id, version, events, new_groups, first_event, last_event, ord)
       JOIN releases.releases r ON r.organization_id = s.organization_id AND r.version = s.version
       ORDER BY s.ord
       ON CONFLICT (release_id, project_id) DO UPDATE SET
         events = p.events + EXCLUDED.events,
         new_groups = p.new_groups + EXCLUDED.new_groups,
         first_event = LEAST(p.first_event, EXCLUDED.first_event),
         last_event = GREATEST(p.last_event, EXCLUDED.last_event)`,
      columns,
    );
  }

  async listCommits(sql: Sql, releaseId: string, offset: number, limit: number): Promise<CommitRow[]> {
    return sql.query<CommitRow>(
      `SELECT commit_id AS id, repository, message, author_name, author_email, date_created FROM releases.release_commits
       WHERE release_id = $1 ORDER BY position OFFSET $2 LIMIT $3`,
      [releaseId, offset, limit],
    );
  }

  /** The newest release of the organization before this one (by creation) that has commits. */
  async previousWithCommits(sql: Sql, organizationId: string, release: ReleaseRow): Promise<ReleaseRow | null> {
    const [row] = await sql.query<ReleaseRow>(
      `SELECT ${RELEASE_COLUMNS} FROM releases.releases r
       WHERE r.organization_id = $1 AND (r.date_created, r.id) < ($2::timestamptz, $3::bigint)
         AND EXISTS (SELECT 1 FROM releases.release_commits c WHERE c.release_id = r.id)
       ORDER BY r.date_created DESC, r.id DESC LIMIT 1`,
      [organizationId, release.date_created, release.id],
    );
    return row ?? null;
  }

  async listRepositories(sql: Sql, organizationId: string, offset: number, limit: number): Promise<RepositoryRow[]> {
    return sql.query<RepositoryRow>(
      `SELECT id::text, name, url, provider, date_created FROM releases.repositories WHERE organization_id = $1 ORDER BY lower(name) OFFSET $2 LIMIT $3`,
      [organizationId, offset, limit],
    );
  }

  /** The names among these that are no repository of the organization (case-insensitive). */
  async unknownRepositories(sql: Sql, organizationId: string, names: readonly string[]): Promise<string[]> {
    const rows = await sql.query<{ name: string }>(
      `SELECT n AS name FROM unnest($2::text[]) AS n WHERE NOT EXISTS (SELECT 1 FROM releases.repositories WHERE organization_id = $1 AND lower(name) = lower(n))`,
      [organizationId, names],
    );
    return rows.map((row) => row.name);
  }

  /** Registers a repository; null when one of that name exists. */
  async addRepository(
    sql: Sql,
    organizationId: string,
    repository: { name: string; url: string | null; provider: string | null },
    now: Date,
  ): Promise<RepositoryRow | null> {
    const [row] = await sql.query<RepositoryRow>(
      `INSERT INTO releases.repositories (organization_id, name, url, provider, date_created) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id::text, name, url, provider, date_created`,
      [organizationId, repository.name, repository.url, repository.provider, now],
    );
    return row ?? null;
  }
}

export interface CommitRow {
  id: string;
  repository: string | null;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  date_created: Date | null;
}

export interface RepositoryRow {
  id: string;
  name: string;
  url: string | null;
  provider: string | null;
  date_created: Date;
}
