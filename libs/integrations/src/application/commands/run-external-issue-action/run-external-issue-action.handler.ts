import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Actors } from '@faultline/identity';
import { issueUrl } from '@faultline/issues';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { componentTypes, declaredUris, externalIssueLinked, linkedTicket, SENTRY_APP_STREAM_TYPE, sentryAppStream } from '../../../domain';
import { ComponentRequester } from '../../../infrastructure/component-requester';
import { type ExternalIssueRow, ExternalIssuesRepository } from '../../../infrastructure/external-issues.repository';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { actorFor } from '../../actors';
import { RunExternalIssueActionCommand } from './run-external-issue-action.command';

@CommandHandler(RunExternalIssueActionCommand)
export class RunExternalIssueActionHandler implements ICommandHandler<RunExternalIssueActionCommand, ExternalIssueRow> {
  constructor(
    private readonly actors: Actors,
    private readonly database: Database,
    private readonly installations: InstallationsRepository,
    private readonly apps: SentryAppsRepository,
    private readonly links: ExternalIssuesRepository,
    private readonly requester: ComponentRequester,
    private readonly recorder: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ installationUuid, issue, action, uri, fields, userId }: RunExternalIssueActionCommand): Promise<ExternalIssueRow> {
    const installation = await this.installations.find(this.database, installationUuid);
    const app = installation ? await this.apps.findById(this.database, String(installation.app_id)) : null;
    if (!installation || installation.status === 'deleted' || !app) throw DomainError.notFound();
    if (!componentTypes(app.schema).has('issue-link')) throw DomainError.invalid('This integration has no issue-link component.');
    if (!app.webhook_url || !declaredUris(app.schema).has(uri)) throw DomainError.invalid(`${uri} is not a URI of this integration's components.`);
    const actor = await actorFor(this.actors, this.database, userId);
    // The app is called outside any transaction: nothing is held while it answers.
    const answer = await this.requester.post({ webhookUrl: app.webhook_url, clientSecret: app.client_secret }, uri, {
      fields,
      issueId: Number(issue.id),
      installationId: installation.uuid,
      webUrl: issueUrl(this.config.publicUrl, issue.organizationSlug, issue.id),
      project: { slug: issue.projectSlug, id: Number(issue.projectId) },
      actor,
      action,
    });
    const ticket = linkedTicket(answer);
    return this.database.transaction(async (tx) => {
      const row = await this.links.upsert(tx, {
        appId: String(app.id),
        installationUuid: installation.uuid,
        organizationId: String(installation.organization_id),
        issueId: issue.id,
        ...ticket,
      });
      await this.recorder.record(tx, sentryAppStream(app.uuid), SENTRY_APP_STREAM_TYPE, [
        externalIssueLinked({ appUuid: app.uuid, installationUuid: installation.uuid, linkId: String(row.id), issueId: issue.id, ...ticket }),
      ]);
      return row;
    });
  }
}
