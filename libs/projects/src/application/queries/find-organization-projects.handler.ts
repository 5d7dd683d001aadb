import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { ProjectsRepository } from '../../infrastructure/projects.repository';
import type { ProjectSummary } from './find-project.query';
import { FindOrganizationProjectsQuery } from './find-organization-projects.query';

@QueryHandler(FindOrganizationProjectsQuery)
export class FindOrganizationProjectsHandler implements IQueryHandler<FindOrganizationProjectsQuery, ProjectSummary[]> {
  constructor(
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
  ) {}

  execute({ organizationId }: FindOrganizationProjectsQuery): Promise<ProjectSummary[]> {
    return this.projects.summaries(this.database, organizationId);
  }
}
