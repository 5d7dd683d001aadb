import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { DomainError, isNumericId } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { FindIssueQuery, type IssueSummary } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { externalIssueLinked, SENTRY_APP_STREAM_TYPE, sentryAppStream } from '../../../domain';
import { type ExternalIssueRow, ExternalIssuesRepository } from '../../../infrastructure/external-issues.repository';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { LinkExternalIssueCommand } from './link-external-issue.command';

@CommandHandler(LinkExternalIssueCommand)
export class LinkExternalIssueHandler implements ICommandHandler<LinkExternalIssueCommand, ExternalIssueRow> {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly installations: InstallationsRepository,
    private readonly links: ExternalIssuesRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ installationUuid, link }: LinkExternalIssueCommand): Promise<ExternalIssueRow> {
    const installation = await this.installations.find(this.database, installationUuid);
    if (!installation || installation.status === 'deleted') throw DomainError.notFound();
    // Only the numeric id: a short id is not what the spec's integer issueId means.
    const issue = isNumericId(link.issueId)
      ? await this.queries.execute<FindIssueQuery, IssueSummary | null>(new FindIssueQuery(String(installation.organization_id), link.issueId))
      : null;
    if (!issue || issue.id !== link.issueId) throw DomainError.notFound('Issue not found');
    return this.database.transaction(async (tx) => {
      const row = await this.links.upsert(tx, {
        appId: String(installation.app_id),
        installationUuid,
        organizationId: String(installation.organization_id),
        issueId: issue.id,
        webUrl: link.webUrl,
        project: link.project,
        identifier: link.identifier,
      });
      await this.recorder.record(tx, sentryAppStream(installation.app_uuid), SENTRY_APP_STREAM_TYPE, [
        externalIssueLinked({
          appUuid: installation.app_uuid,
          installationUuid,
          linkId: String(row.id),
          issueId: issue.id,
          webUrl: link.webUrl,
          project: link.project,
          identifier: link.identifier,
        }),
      ]);
      return row;
    });
  }
}
