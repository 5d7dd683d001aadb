import { Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { IdentityModule } from '@faultline/identity';
import { IssuesModule } from '@faultline/issues';
import { ProjectsModule, ProjectTransferNotices } from '@faultline/projects';
import { WorkerHost } from '@faultline/platform';
import { DeliveryTargetKindRegistry, WebhooksModule } from '@faultline/webhooks';
import { NotificationsController, UnsubscribeController } from './api/notifications.controller';
import { IssueAlertNotifier } from './contracts/issue-alert-notifier';
import { ChatTargetKind } from './infrastructure/chat-target-kind';
import { InvitationMailer } from './infrastructure/invitation-mailer';
import { IssueAlertMailer } from './infrastructure/issue-alert-mailer';
import { MailLogPruner } from './infrastructure/mail-log-pruner.worker';
import { MailOutbox } from './infrastructure/mail-outbox';
import { MailTargetKind } from './infrastructure/mail-target-kind';
import { NotificationsRepository } from './infrastructure/notifications.repository';
import { ProjectTransferMailer } from './infrastructure/project-transfer-mailer';
import { SpikeMailer } from './infrastructure/spike-mailer';
import { WorkflowMailer } from './infrastructure/workflow-mailer';

/**
 * Mail (SMTP) and chat webhooks as delivery target kinds of the one delivery engine, the issue
 * alert actions that use them, Sentry's workflow notifications, invitation and project transfer mail, and users'
 * notification options.
 */
@Module({
  imports: [CqrsModule, EventStoreModule, IdentityModule, ProjectsModule, IssuesModule, WebhooksModule],
  controllers: [NotificationsController, UnsubscribeController],
  providers: [
    NotificationsRepository,
    MailTargetKind,
    ChatTargetKind,
    MailOutbox,
    WorkflowMailer,
    InvitationMailer,
    ProjectTransferMailer,
    SpikeMailer,
    MailLogPruner,
    { provide: IssueAlertNotifier, useClass: IssueAlertMailer },
  ],
  exports: [IssueAlertNotifier],
})
export class NotificationsModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly kinds: DeliveryTargetKindRegistry,
    private readonly mail: MailTargetKind,
    private readonly chat: ChatTargetKind,
    private readonly recorder: EventRecorder,
    private readonly workflow: WorkflowMailer,
    private readonly invitations: InvitationMailer,
    private readonly spikes: SpikeMailer,
    private readonly transfers: ProjectTransferNotices,
    private readonly transferMailer: ProjectTransferMailer,
    private readonly pruner: MailLogPruner,
    private readonly workers: WorkerHost,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this.mail);
    this.kinds.register(this.chat);
    this.recorder.onAppended(this.workflow.onAppended);
    this.recorder.onAppended(this.invitations.onAppended);
    this.recorder.onAppended(this.spikes.onAppended);
    this.transfers.onRequested(this.transferMailer.onRequested);
    this.workers.register(this.pruner);
  }

  onApplicationBootstrap(): void {
    this.mail.announce();
  }
}
