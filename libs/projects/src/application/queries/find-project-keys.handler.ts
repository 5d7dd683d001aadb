import { isNumericId } from '@faultline/kernel';
import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { keyEndpoints } from '../../domain/dsn';
import type { ProjectKeyRow } from '../../infrastructure/projects.repository';
import { FindProjectKeysQuery, type ProjectKeySummary } from './find-project-keys.query';

@QueryHandler(FindProjectKeysQuery)
export class FindProjectKeysHandler implements IQueryHandler<FindProjectKeysQuery, ProjectKeySummary[] | null> {
  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ organizationIdOrSlug, projectIdOrSlug }: FindProjectKeysQuery): Promise<ProjectKeySummary[] | null> {
    const byId = (value: string, alias: string) => (isNumericId(value) ? `${alias}.id = ` : `${alias}.slug = `);
    const [project] = await this.database.query<{ id: string }>(
      `SELECT p.id FROM projects.projects p JOIN identity.organizations o ON o.id = p.organization_id
       WHERE ${byId(organizationIdOrSlug, 'o')}$1 AND ${byId(projectIdOrSlug, 'p')}$2`,
      [organizationIdOrSlug, projectIdOrSlug],
    );
    if (!project) return null;
    const keys = await this.database.query<ProjectKeyRow>(`SELECT * FROM projects.project_keys WHERE project_id = $1 ORDER BY id`, [project.id]);
    return keys.map((key) => ({
      publicKey: key.public_key,
      label: key.label,
      dsn: keyEndpoints(this.config.publicUrl, key.public_key, key.secret_key, key.project_id).public,
    }));
  }
}
