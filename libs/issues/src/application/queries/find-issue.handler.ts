import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FindIssueQuery, type IssueSummary } from './find-issue.query';
import { IssueReadModel } from '../../infrastructure/issue-read-model.repository';

@QueryHandler(FindIssueQuery)
export class FindIssueHandler implements IQueryHandler<FindIssueQuery, IssueSummary | null> {
  constructor(private readonly readModel: IssueReadModel) {}

  async execute({ organizationId, issueIdOrShortId }: FindIssueQuery): Promise<IssueSummary | null> {
    const row = await this.readModel.find(organizationId, issueIdOrShortId);
    if (!row) return null;
    return {
      id: String(row.id),
      shortId: row.short_id,
      projectId: String(row.project_id),
      projectSlug: row.project_slug,
      title: row.title,
      status: row.status,
    };
  }
}
