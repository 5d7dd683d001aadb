import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { keyEndpoints } from '../../domain/dsn';
import { ProjectsRepository } from '../../infrastructure/projects.repository';
import { FindProjectKeysQuery, type ProjectKeySummary } from './find-project-keys.query';

@QueryHandler(FindProjectKeysQuery)
export class FindProjectKeysHandler implements IQueryHandler<FindProjectKeysQuery, ProjectKeySummary[] | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ organizationIdOrSlug, projectIdOrSlug }: FindProjectKeysQuery): Promise<ProjectKeySummary[] | null> {
    const projectId = await this.repository.findInOrganization(this.database, organizationIdOrSlug, projectIdOrSlug);
    if (!projectId) return null;
    const keys = await this.repository.allKeys(this.database, projectId);
    return keys.map((key) => ({
      publicKey: key.public_key,
      label: key.label,
      dsn: keyEndpoints(this.config.publicUrl, key.public_key, key.secret_key, key.project_id).public,
    }));
  }
}
