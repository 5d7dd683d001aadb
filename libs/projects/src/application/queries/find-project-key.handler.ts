import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { FindProjectKeyQuery, type ProjectKeyAccess } from './find-project-key.query';

interface KeyRow {
  id: string;
  public_key: string;
  is_active: boolean;
  project_id: string;
  slug: string;
  organization_id: string;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
}

@QueryHandler(FindProjectKeyQuery)
export class FindProjectKeyHandler implements IQueryHandler<FindProjectKeyQuery, ProjectKeyAccess | null> {
  constructor(private readonly database: Database) {}

  async execute({ publicKey }: FindProjectKeyQuery): Promise<ProjectKeyAccess | null> {
    if (!/^[0-9a-f]{32}$/.test(publicKey)) return null;
    const [row] = await this.database.query<KeyRow>(
      `SELECT k.id, k.public_key, k.is_active, k.project_id, p.slug, p.organization_id, k.rate_limit_count, k.rate_limit_window
       FROM projects.project_keys k JOIN projects.projects p ON p.id = k.project_id WHERE k.public_key = $1`,
      [publicKey],
    );
    if (!row) return null;
    return {
      keyId: row.id,
      publicKey: row.public_key,
      isActive: row.is_active,
      projectId: row.project_id,
      projectSlug: row.slug,
      organizationId: row.organization_id,
      rateLimit:
        row.rate_limit_count !== null && row.rate_limit_window !== null
          ? { count: row.rate_limit_count, windowSeconds: row.rate_limit_window }
          : null,
    };
  }
}
