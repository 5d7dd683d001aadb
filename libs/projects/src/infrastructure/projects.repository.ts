import { type DataPrivacySettings, isNumericId } from '@faultline/kernel';
import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { ProjectSummary } from '../application/queries/find-project.query';

export interface ProjectRow {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  platform: string | null;
  status: string;
  features: string[];
  first_event: Date | null;
  date_created: Date;
  is_bookmarked: boolean;
  is_member: boolean;
  teams: Array<{ id: string; slug: string; name: string }>;
  data_scrubber: boolean;
  data_scrubber_defaults: boolean;
  sensitive_fields: string[];
  safe_fields: string[];
  scrub_ip_addresses: boolean;
  store_crash_reports: number | null;
}

export interface ProjectKeyRow {
  id: string;
  project_id: string;
  label: string;
  public_key: string;
  secret_key: string;
  is_active: boolean;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
  browser_sdk_version: string;
  dynamic_sdk_loader_options: Record<string, boolean>;
  date_created: Date;
}

/** What a key's owner can change, in the API's terms. */
export interface ProjectKeySettings {
  name: string;
  isActive: boolean;
  rateLimit: { count: number; window: number } | null;
  browserSdkVersion: string;
  dynamicSdkLoaderOptions: Record<string, boolean>;
}

export function projectKeySettings(key: ProjectKeyRow): ProjectKeySettings {
  return {
    name: key.label,
    isActive: key.is_active,
    rateLimit: key.rate_limit_count === null || key.rate_limit_window === null ? null : { count: key.rate_limit_count, window: key.rate_limit_window },
    browserSdkVersion: key.browser_sdk_version,
    dynamicSdkLoaderOptions: key.dynamic_sdk_loader_options,
  };
}

/** A project's data privacy settings, as the API names them. */
export interface DataPrivacyColumns extends DataPrivacySettings {
  storeCrashReports: number | null;
}

const DATA_PRIVACY_COLUMNS = `data_scrubber AS "dataScrubber", data_scrubber_defaults AS "dataScrubberDefaults", sensitive_fields AS "sensitiveFields",
  safe_fields AS "safeFields", scrub_ip_addresses AS "scrubIPAddresses", store_crash_reports AS "storeCrashReports"`;

const PROJECT_COLUMNS = `
  p.id, p.organization_id, p.slug, p.name, p.platform, p.status, p.features, p.first_event, p.date_created,
  p.data_scrubber, p.data_scrubber_defaults, p.sensitive_fields, p.safe_fields, p.scrub_ip_addresses, p.store_crash_reports,
  EXISTS (SELECT 1 FROM projects.project_bookmarks b WHERE b.project_id = p.id AND b.user_id = $3::bigint) AS is_bookmarked,
  EXISTS (SELECT 1 FROM projects.project_teams pt JOIN identity.team_memberships tm ON tm.team_id = pt.team_id
          JOIN identity.member_directory m ON m.id = tm.member_id
          WHERE pt.project_id = p.id AND m.user_id = $3::bigint) AS is_member,
  COALESCE((SELECT json_agg(json_build_object('id', t.id::text, 'slug', t.slug, 'name', t.name) ORDER BY t.slug)
            FROM projects.project_teams pt JOIN identity.team_directory t ON t.id = pt.team_id WHERE pt.project_id = p.id), '[]'::json) AS teams`;

/**
 * The one query behind project detail: parameters organization id, project id or slug, user id.
 * Published as ProjectDetailStatement, so the benchmark's bare route runs exactly the same SQL.
 */
export const projectDetailSql = (idOrSlug: string): string =>
  `SELECT ${PROJECT_COLUMNS} FROM projects.projects p
   WHERE p.organization_id = $1 AND ${isNumericId(idOrSlug) ? 'p.id = $2::bigint' : 'p.slug = $2'}`;

@Injectable()
export class ProjectsRepository {
  /** Every project of the organization, in id order, as other contexts see a project. */
  async summaries(sql: Sql, organizationId: string): Promise<ProjectSummary[]> {
    return sql.query<ProjectSummary>(
      `SELECT id::text AS id, slug, name, platform, features FROM projects.projects WHERE organization_id = $1::bigint ORDER BY id`,
      [organizationId],
    );
  }

  async find(sql: Sql, organizationId: string, idOrSlug: string, userId?: string): Promise<ProjectRow | undefined> {
    const [row] = await sql.query<ProjectRow>(projectDetailSql(idOrSlug), [organizationId, idOrSlug, userId ?? null]);
    return row;
  }

  async list(sql: Sql, organizationId: string, userId: string | undefined, query: string | undefined, offset: number, limit: number): Promise<ProjectRow[]> {
    return sql.query<ProjectRow>(
      `SELECT ${PROJECT_COLUMNS} FROM projects.projects p
       WHERE p.organization_id = $1 AND ($2::text IS NULL OR p.slug ILIKE '%' || $2 || '%' OR p.name ILIKE '%' || $2 || '%')
       ORDER BY p.slug OFFSET $4 LIMIT $5`,
      [organizationId, query ?? null, userId ?? null, offset, limit],
    );
  }

  async findSummary(
    sql: Sql,
    organizationId: string,
    idOrSlug: string,
  ): Promise<{ id: string; slug: string; name: string; platform: string | null; features: string[] } | undefined> {
    const [row] = await sql.query<{ id: string; slug: string; name: string; platform: string | null; features: string[] }>(
      `SELECT id, slug, name, platform, features FROM projects.projects WHERE organization_id = $1 AND ${isNumericId(idOrSlug) ? 'id = $2::bigint' : 'slug = $2'}`,
      [organizationId, idOrSlug],
    );
    return row;
  }

  /** A project named by its organization's id or slug and its own id or slug. */
  async findInOrganization(sql: Sql, organizationIdOrSlug: string, projectIdOrSlug: string): Promise<string | undefined> {
    const byId = (value: string, alias: string) => (isNumericId(value) ? `${alias}.id = ` : `${alias}.slug = `);
    const [project] = await sql.query<{ id: string }>(
      `SELECT p.id FROM projects.projects p JOIN identity.organization_directory o ON o.id = p.organization_id
       WHERE ${byId(organizationIdOrSlug, 'o')}$1 AND ${byId(projectIdOrSlug, 'p')}$2`,
      [organizationIdOrSlug, projectIdOrSlug],
    );
    return project?.id;
  }

  /** The key a DSN names, with its project's slug and organization, for the ingest path. */
  async findKeyByPublicKey(sql: Sql, publicKey: string) {
    const [row] = await sql.query<{
      id: string;
      public_key: string;
      is_active: boolean;
      project_id: string;
      slug: string;
      organization_id: string;
      rate_limit_count: number | null;
      rate_limit_window: number | null;
    }>(
      `SELECT k.id, k.public_key, k.is_active, k.project_id, p.slug, p.organization_id, k.rate_limit_count, k.rate_limit_window
       FROM projects.project_keys k JOIN projects.projects p ON p.id = k.project_id WHERE k.public_key = $1`,
      [publicKey],
    );
    return row;
  }

  async allKeys(sql: Sql, projectId: string): Promise<ProjectKeyRow[]> {
    return sql.query<ProjectKeyRow>(`SELECT * FROM projects.project_keys WHERE project_id = $1 ORDER BY id`, [projectId]);
  }

  async slugTaken(sql: Sql, organizationId: string, slug: string): Promise<boolean> {
    return (await sql.query(`SELECT 1 FROM projects.projects WHERE organization_id = $1 AND slug = $2`, [organizationId, slug])).length > 0;
  }

  async insert(
    sql: Sql,
    project: { organizationId: string; slug: string; name: string; platform: string | null; features: readonly string[] },
  ): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name, platform, features) VALUES ($1, $2, $3, $4, $5::text[]) RETURNING id`,
      [project.organizationId, project.slug, project.name, project.platform, [...project.features]],
    );
    return row.id;
  }

  /** Whether the team was added (false: it had access already). */
  async addTeam(sql: Sql, projectId: string, teamId: string): Promise<boolean> {
    const rows = await sql.query(`INSERT INTO projects.project_teams (project_id, team_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`, [
      projectId,
      teamId,
    ]);
    return rows.length > 0;
  }

  async removeTeam(sql: Sql, projectId: string, teamId: string): Promise<boolean> {
    const rows = await sql.query(`DELETE FROM projects.project_teams WHERE project_id = $1 AND team_id = $2 RETURNING 1`, [projectId, teamId]);
    return rows.length > 0;
  }

  async lock(
    sql: Sql,
    organizationId: string,
    projectId: string,
  ): Promise<({ id: string; slug: string; name: string; platform: string | null; features: string[] } & DataPrivacyColumns) | undefined> {
    const [row] = await sql.query(
      `SELECT id, slug, name, platform, features, ${DATA_PRIVACY_COLUMNS} FROM projects.projects WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, projectId],
    );
    return row as never;
  }

  async update(
    sql: Sql,
    projectId: string,
    changes: { slug?: string; name?: string; platform?: string | null; features?: string[] } & Partial<DataPrivacyColumns>,
  ): Promise<void> {
    await sql.execute(
      `UPDATE projects.projects SET slug = COALESCE($2, slug), name = COALESCE($3, name),
              platform = CASE WHEN $4::boolean THEN $5 ELSE platform END, features = COALESCE($6::text[], features),
              data_scrubber = COALESCE($7, data_scrubber), data_scrubber_defaults = COALESCE($8, data_scrubber_defaults),
              sensitive_fields = COALESCE($9::text[], sensitive_fields), safe_fields = COALESCE($10::text[], safe_fields),
              scrub_ip_addresses = COALESCE($11, scrub_ip_addresses),
              store_crash_reports = CASE WHEN $12::boolean THEN $13::integer ELSE store_crash_reports END
       WHERE id = $1`,
      [
        projectId,
        changes.slug ?? null,
        changes.name ?? null,
        changes.platform !== undefined,
        changes.platform ?? null,
        changes.features ?? null,
        changes.dataScrubber ?? null,
        changes.dataScrubberDefaults ?? null,
        changes.sensitiveFields ?? null,
        changes.safeFields ?? null,
        changes.scrubIPAddresses ?? null,
        changes.storeCrashReports !== undefined,
        changes.storeCrashReports ?? null,
      ],
    );
  }

  /** What an event of the project is scrubbed with: its settings and its organization's (read through identity's published view). */
  async dataPrivacy(sql: Sql, projectId: string): Promise<{ project: DataPrivacySettings; organization: DataPrivacySettings } | undefined> {
    const [row] = await sql.query<{ project: DataPrivacyColumns; organization: DataPrivacyColumns }>(
      `SELECT json_build_object('dataScrubber', p.data_scrubber, 'dataScrubberDefaults', p.data_scrubber_defaults, 'sensitiveFields', p.sensitive_fields,
                                'safeFields', p.safe_fields, 'scrubIPAddresses', p.scrub_ip_addresses) AS project,
              json_build_object('dataScrubber', o.data_scrubber, 'dataScrubberDefaults', o.data_scrubber_defaults, 'sensitiveFields', o.sensitive_fields,
                                'safeFields', o.safe_fields, 'scrubIPAddresses', o.scrub_ip_addresses) AS organization
       FROM projects.projects p JOIN identity.organization_data_privacy o ON o.organization_id = p.organization_id
       WHERE p.id = $1`,
      [projectId],
    );
    return row;
  }

  async setBookmark(sql: Sql, projectId: string, userId: string, bookmarked: boolean): Promise<void> {
    await sql.execute(
      bookmarked
        ? `INSERT INTO projects.project_bookmarks (project_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`
        : `DELETE FROM projects.project_bookmarks WHERE project_id = $1 AND user_id = $2`,
      [projectId, userId],
    );
  }

  async delete(sql: Sql, projectId: string): Promise<void> {
    await sql.execute(`DELETE FROM projects.projects WHERE id = $1`, [projectId]);
  }

  async insertKey(
    sql: Sql,
    key: { projectId: string; label: string; publicKey: string; secretKey: string; rateLimit?: { count: number; window: number } },
  ): Promise<ProjectKeyRow> {
    const [row] = await sql.query<ProjectKeyRow>(
      `INSERT INTO projects.project_keys (project_id, label, public_key, secret_key, rate_limit_count, rate_limit_window)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [key.projectId, key.label, key.publicKey, key.secretKey, key.rateLimit?.count ?? null, key.rateLimit?.window ?? null],
    );
    return row;
  }

  async lockKey(sql: Sql, projectId: string, publicKey: string): Promise<ProjectKeyRow | null> {
    const [row] = await sql.query<ProjectKeyRow>(`SELECT * FROM projects.project_keys WHERE project_id = $1 AND public_key = $2 FOR UPDATE`, [
      projectId,
      publicKey,
    ]);
    return row ?? null;
  }

  async findKey(sql: Sql, projectId: string, publicKey: string): Promise<ProjectKeyRow | null> {
    const [row] = await sql.query<ProjectKeyRow>(`SELECT * FROM projects.project_keys WHERE project_id = $1 AND public_key = $2`, [projectId, publicKey]);
    return row ?? null;
  }

  async updateKey(sql: Sql, keyId: string, settings: ProjectKeySettings): Promise<ProjectKeyRow> {
    const [row] = await sql.query<ProjectKeyRow>(
      `UPDATE projects.project_keys SET label = $2, is_active = $3, rate_limit_count = $4, rate_limit_window = $5,
              browser_sdk_version = $6, dynamic_sdk_loader_options = $7::jsonb
       WHERE id = $1 RETURNING *`,
      [
        keyId,
        settings.name,
        settings.isActive,
        settings.rateLimit?.count ?? null,
        settings.rateLimit?.window ?? null,
        settings.browserSdkVersion,
        JSON.stringify(settings.dynamicSdkLoaderOptions),
      ],
    );
    return row;
  }

  async deleteKey(sql: Sql, projectId: string, publicKey: string): Promise<boolean> {
    return (await sql.execute(`DELETE FROM projects.project_keys WHERE project_id = $1 AND public_key = $2`, [projectId, publicKey])) > 0;
  }

  async listKeys(sql: Sql, projectId: string, offset: number, limit: number): Promise<ProjectKeyRow[]> {
    return sql.query<ProjectKeyRow>(`SELECT * FROM projects.project_keys WHERE project_id = $1 ORDER BY date_created, id OFFSET $2 LIMIT $3`, [
      projectId,
      offset,
      limit,
    ]);
  }
}
