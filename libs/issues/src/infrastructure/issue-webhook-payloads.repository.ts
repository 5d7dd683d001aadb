import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type Sql } from '@faultline/platform';
import { type IssueWebhookPayload, IssueWebhookPayloads, type IssueWebhookView } from '../contracts/issue-webhook-payloads';
import { issueApiUrl, issueUrl } from '../domain';

interface IssuePayloadRow {
  id: string;
  short_id: string;
  title: string;
  culprit: string;
  level: string;
  status: string;
  substatus: string | null;
  platform: string;
  first_seen: Date;
  last_seen: Date;
  times_seen: string;
  user_count: number;
  assignee: unknown;
  project_id: string;
  project_name: string;
  project_slug: string;
  project_platform: string | null;
  organization_slug: string;
}

@Injectable()
export class IssueWebhookPayloadsRepository extends IssueWebhookPayloads {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async find(sql: Sql, issueIds: readonly string[]): Promise<Map<string, IssueWebhookView>> {
    if (issueIds.length === 0) return new Map();
    const rows = await sql.query<IssuePayloadRow>(
      `SELECT i.id, i.short_id, i.title, i.culprit, i.level, i.status, i.substatus, i.platform, i.first_seen, i.last_seen, i.times_seen,
              i.user_count, i.assignee, p.id AS project_id, p.name AS project_name, p.slug AS project_slug, p.platform AS project_platform,
              o.slug AS organization_slug
       FROM issues.issues i JOIN projects.project_directory p ON p.id = i.project_id JOIN identity.organization_directory o ON o.id = p.organization_id
       WHERE i.id = ANY($1::bigint[])`,
      [[...new Set(issueIds)]],
    );
    return new Map(rows.map((row) => [String(row.id), { organizationSlug: row.organization_slug, issue: this.payload(row) }]));
  }

  async latestOfProject(sql: Sql, projectId: string): Promise<string | null> {
    const [row] = await sql.query<{ id: string }>(`SELECT id::text FROM issues.issues WHERE project_id = $1 ORDER BY last_seen DESC LIMIT 1`, [projectId]);
    return row?.id ?? null;
  }

  private payload(row: IssuePayloadRow): IssueWebhookPayload {
    const base = this.config.publicUrl;
    const id = String(row.id);
    return {
      id,
      shortId: row.short_id,
      title: row.title,
      culprit: row.culprit,
      level: row.level,
      status: row.status,
      substatus: row.substatus,
      statusDetails: {},
      platform: row.platform,
      firstSeen: row.first_seen.toISOString(),
      lastSeen: row.last_seen.toISOString(),
      count: Number(row.times_seen),
      userCount: row.user_count,
      assignedTo: row.assignee ?? null,
      metadata: { title: row.title },
      project: { id: String(row.project_id), name: row.project_name, slug: row.project_slug, platform: row.project_platform },
      url: issueApiUrl(base, row.organization_slug, id),
      web_url: issueUrl(base, row.organization_slug, id),
      project_url: `${base}/organizations/${row.organization_slug}/projects/${row.project_slug}/`,
    };
  }
}
