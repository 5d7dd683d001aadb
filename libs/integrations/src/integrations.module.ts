import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { IdentityModule } from '@faultline/identity';
import { IssuesModule } from '@faultline/issues';
import { DeliveryTargetKindRegistry, WebhooksModule } from '@faultline/webhooks';
import { ExternalIssueActionsController, ExternalRequestsController } from './api/components.controller';
import { ExternalIssuesController, IssueExternalIssuesController } from './api/external-issues.controller';
import { InstallationController, OrganizationInstallationsController } from './api/installations.controller';
import { IntegrationsAccess } from './api/integrations-access';
import { OrganizationSentryAppsController, SentryAppsController } from './api/sentry-apps.controller';
import { AuthorizeInstallationHandler } from './application/commands/authorize-installation/authorize-installation.handler';
import { CreateSentryAppHandler } from './application/commands/create-sentry-app/create-sentry-app.handler';
import { DeleteSentryAppHandler } from './application/commands/delete-sentry-app/delete-sentry-app.handler';
import { InstallSentryAppHandler } from './application/commands/install-sentry-app/install-sentry-app.handler';
import { LinkExternalIssueHandler } from './application/commands/link-external-issue/link-external-issue.handler';
import { MintInternalTokenHandler } from './application/commands/mint-internal-token/mint-internal-token.handler';
import { RevokeInternalTokenHandler } from './application/commands/revoke-internal-token/revoke-internal-token.handler';
import { RequestPublicationHandler } from './application/commands/request-publication/request-publication.handler';
import { UninstallSentryAppHandler } from './application/commands/uninstall-sentry-app/uninstall-sentry-app.handler';
import { UnlinkExternalIssueHandler } from './application/commands/unlink-external-issue/unlink-external-issue.handler';
import { UpdateSentryAppHandler } from './application/commands/update-sentry-app/update-sentry-app.handler';
import { VerifyInstallationHandler } from './application/commands/verify-installation/verify-installation.handler';
import { Installer } from './application/installer';
import { FetchSelectOptionsHandler } from './application/queries/fetch-select-options/fetch-select-options.handler';
import { RunExternalIssueActionHandler } from './application/commands/run-external-issue-action/run-external-issue-action.handler';
import { ComponentRequester } from './infrastructure/component-requester';
import { IssueExternalLinksHandler } from './application/queries/issue-external-links.handler';
import { AppWebhookOutbox } from './contracts/app-webhook-outbox';
import { InstallationLookup } from './contracts/installation-lookup';
import { AppWebhookOutboxService } from './infrastructure/app-webhook-outbox';
import { InstallationLookupService } from './infrastructure/installation-lookup.service';
import { AppWebhookTargetKind } from './infrastructure/app-webhook-target-kind';
import { ExternalIssuesRepository } from './infrastructure/external-issues.repository';
import { InstallationsRepository } from './infrastructure/installations.repository';
import { SentryAppsRepository } from './infrastructure/sentry-apps.repository';

/** The integration platform: service apps, their installations (event-sourced), OAuth, external issue links and app webhooks. */
@Module({
  imports: [CqrsModule, EventStoreModule, IdentityModule, IssuesModule, WebhooksModule],
  controllers: [
    SentryAppsController,
    OrganizationSentryAppsController,
    OrganizationInstallationsController,
    InstallationController,
    ExternalIssuesController,
    IssueExternalIssuesController,
    ExternalRequestsController,
    ExternalIssueActionsController,
  ],
  providers: [
    SentryAppsRepository,
    InstallationsRepository,
    ExternalIssuesRepository,
    AppWebhookOutboxService,
    { provide: AppWebhookOutbox, useExisting: AppWebhookOutboxService },
    AppWebhookTargetKind,
    { provide: InstallationLookup, useClass: InstallationLookupService },
    Installer,
    IntegrationsAccess,
    CreateSentryAppHandler,
    UpdateSentryAppHandler,
    DeleteSentryAppHandler,
    RequestPublicationHandler,
    InstallSentryAppHandler,
    VerifyInstallationHandler,
    AuthorizeInstallationHandler,
    UninstallSentryAppHandler,
    MintInternalTokenHandler,
    RevokeInternalTokenHandler,
    LinkExternalIssueHandler,
    UnlinkExternalIssueHandler,
    IssueExternalLinksHandler,
    FetchSelectOptionsHandler,
    RunExternalIssueActionHandler,
    ComponentRequester,
  ],
  exports: [AppWebhookOutbox, InstallationLookup],
})
export class IntegrationsModule implements OnModuleInit {
  constructor(
    private readonly recorder: EventRecorder,
    private readonly outbox: AppWebhookOutboxService,
    private readonly kinds: DeliveryTargetKindRegistry,
    private readonly appWebhooks: AppWebhookTargetKind,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this.appWebhooks);
    this.recorder.onAppended(this.outbox.onAppended);
  }
}
