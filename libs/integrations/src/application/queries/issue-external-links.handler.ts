import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type IssueExternalLink, IssueExternalLinksQuery } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { serializeExternalIssue } from '../../api/integrations.serializers';
import { ExternalIssuesRepository } from '../../infrastructure/external-issues.repository';

/** Answers the issues context's question for issue detail: the apps' tickets linked to an issue. */
@QueryHandler(IssueExternalLinksQuery)
export class IssueExternalLinksHandler implements IQueryHandler<IssueExternalLinksQuery, IssueExternalLink[]> {
  constructor(
    private readonly database: Database,
    private readonly links: ExternalIssuesRepository,
  ) {}

  async execute({ organizationId, issueId }: IssueExternalLinksQuery): Promise<IssueExternalLink[]> {
    return (await this.links.listForIssue(this.database, organizationId, issueId)).map(serializeExternalIssue);
  }
}
