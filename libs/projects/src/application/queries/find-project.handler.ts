import { isNumericId } from '@faultline/kernel';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { FindProjectQuery, type ProjectSummary } from './find-project.query';

@QueryHandler(FindProjectQuery)
export class FindProjectHandler implements IQueryHandler<FindProjectQuery, ProjectSummary | null> {
  constructor(private readonly database: Database) {}

  async execute({ organizationId, projectIdOrSlug }: FindProjectQuery): Promise<ProjectSummary | null> {
    const where = isNumericId(projectIdOrSlug) ? 'id = $2::bigint' : 'slug = $2';
    const [row] = await this.database.query<ProjectSummary>(
      `SELECT id, slug, name, platform, features FROM projects.projects WHERE organization_id = $1 AND ${where}`,
      [organizationId, projectIdOrSlug],
    );
    return row ?? null;
  }
}
