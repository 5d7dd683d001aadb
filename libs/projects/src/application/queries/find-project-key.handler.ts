import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isHexId } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { ProjectsRepository } from '../../infrastructure/projects.repository';
import { FindProjectKeyQuery, type ProjectKeyAccess } from './find-project-key.query';

@QueryHandler(FindProjectKeyQuery)
export class FindProjectKeyHandler implements IQueryHandler<FindProjectKeyQuery, ProjectKeyAccess | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
  ) {}

  async execute({ publicKey }: FindProjectKeyQuery): Promise<ProjectKeyAccess | null> {
    if (!isHexId(publicKey)) return null;
    const row = await this.repository.findKeyByPublicKey(this.database, publicKey);
    if (!row) return null;
    return {
      keyId: row.id,
      publicKey: row.public_key,
      isActive: row.is_active,
      projectId: row.project_id,
      projectSlug: row.slug,
      organizationId: row.organization_id,
      rateLimit: row.rate_limit_count !== null && row.rate_limit_window !== null ? { count: row.rate_limit_count, windowSeconds: row.rate_limit_window } : null,
    };
  }
}
