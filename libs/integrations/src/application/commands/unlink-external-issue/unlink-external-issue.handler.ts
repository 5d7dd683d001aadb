import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { externalIssueUnlinked, SENTRY_APP_STREAM_TYPE, sentryAppStream } from '../../../domain';
import { ExternalIssuesRepository } from '../../../infrastructure/external-issues.repository';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { UnlinkExternalIssueCommand } from './unlink-external-issue.command';

@CommandHandler(UnlinkExternalIssueCommand)
export class UnlinkExternalIssueHandler implements ICommandHandler<UnlinkExternalIssueCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly installations: InstallationsRepository,
    private readonly links: ExternalIssuesRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ installationUuid, linkId }: UnlinkExternalIssueCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const installation = await this.installations.find(tx, installationUuid);
      const link = installation ? await this.links.find(tx, installationUuid, linkId) : null;
      if (!installation || !link) throw DomainError.notFound();
      await this.links.delete(tx, link.id);
      await this.recorder.record(tx, sentryAppStream(installation.app_uuid), SENTRY_APP_STREAM_TYPE, [
        externalIssueUnlinked({ appUuid: installation.app_uuid, installationUuid, linkId: String(link.id), issueId: String(link.issue_id) }),
      ]);
    });
  }
}
