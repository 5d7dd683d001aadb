import { isNumericId } from '@faultline/kernel';
import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface ExternalIssueRow {
  id: string;
  app_id: string;
  app_slug: string;
  app_name: string;
  installation_uuid: string;
  organization_id: string;
  issue_id: string;
  web_url: string;
  project: string;
  identifier: string;
  date_created: Date;
}

const SELECT = `SELECT e.id, e.app_id, a.slug AS app_slug, a.name AS app_name, e.installation_uuid, e.organization_id, e.issue_id,
  e.web_url, e.project, e.identifier, e.date_created FROM integrations.external_issues e JOIN integrations.sentry_apps a ON a.id = e.app_id`;

@Injectable()
export class ExternalIssuesRepository {
  /** One link per (issue, app): linking again replaces the ticket it points at. */
  async upsert(
    sql: Sql,
    link: { appId: string; installationUuid: string; organizationId: string; issueId: string; webUrl: string; project: string; identifier: string },
  ): Promise<ExternalIssueRow> {
    const [{ id }] = await sql.query<{ id: string }>(
      `INSERT INTO integrations.external_issues (app_id, installation_uuid, organization_id, issue_id, web_url, project, identifier)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (issue_id, app_id) DO UPDATE SET installation_uuid = EXCLUDED.installation_uuid, web_url = EXCLUDED.web_url,
         project = EXCLUDED.project, identifier = EXCLUDED.identifier
       RETURNING id`,
      [link.appId, link.installationUuid, link.organizationId, link.issueId, link.webUrl, link.project, link.identifier],
    );
    const [row] = await sql.query<ExternalIssueRow>(`${SELECT} WHERE e.id = $1`, [id]);
    return row;
  }

  async find(sql: Sql, installationUuid: string, id: string): Promise<ExternalIssueRow | null> {
    if (!isNumericId(id)) return null;
    const [row] = await sql.query<ExternalIssueRow>(`${SELECT} WHERE e.id = $1 AND e.installation_uuid = $2`, [id, installationUuid]);
    return row ?? null;
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.execute(`DELETE FROM integrations.external_issues WHERE id = $1`, [id]);
  }

  async listForInstallation(sql: Sql, installationUuid: string, offset: number, limit: number): Promise<ExternalIssueRow[]> {
    return sql.query<ExternalIssueRow>(`${SELECT} WHERE e.installation_uuid = $1 ORDER BY e.id DESC OFFSET $2 LIMIT $3`, [installationUuid, offset, limit]);
  }

  async listForIssue(sql: Sql, organizationId: string, issueId: string): Promise<ExternalIssueRow[]> {
    return sql.query<ExternalIssueRow>(`${SELECT} WHERE e.organization_id = $1 AND e.issue_id = $2 ORDER BY e.id`, [organizationId, issueId]);
  }
}
