import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { ProjectsRepository } from '../../infrastructure/projects.repository';
import { FindProjectQuery, type ProjectSummary } from './find-project.query';

@QueryHandler(FindProjectQuery)
export class FindProjectHandler implements IQueryHandler<FindProjectQuery, ProjectSummary | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
  ) {}

  async execute({ organizationId, projectIdOrSlug }: FindProjectQuery): Promise<ProjectSummary | null> {
    return (await this.repository.findSummary(this.database, organizationId, projectIdOrSlug)) ?? null;
  }
}
