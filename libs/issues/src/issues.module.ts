import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { IdentityModule } from '@faultline/identity';
import { ProjectsModule } from '@faultline/projects';
import { ReleasesModule } from '@faultline/releases';
import { EventAttachmentsController } from './api/event-attachments.controller';
import { EventAttachmentIntake } from './contracts/event-attachment-intake';
import { attachmentsConfigProvider } from './infrastructure/attachments-config';
import { EventAttachmentsRepository } from './infrastructure/event-attachments.repository';
import { IssueEventsController } from './api/issue-events.controller';
import { IssuesController } from './api/issues.controller';
import { IssueTagsController } from './api/issue-tags.controller';
import { OrganizationEventsController } from './api/organization-events.controller';
import { UserReportsController } from './api/user-reports.controller';
import { AddIssueCommentHandler } from './application/commands/add-issue-comment/add-issue-comment.handler';
import { DeleteIssueHandler } from './application/commands/delete-issue/delete-issue.handler';
import { DeleteIssueCommentHandler } from './application/commands/delete-issue-comment/delete-issue-comment.handler';
import { EditIssueCommentHandler } from './application/commands/edit-issue-comment/edit-issue-comment.handler';
import { UpdateIssueHandler } from './application/commands/update-issue/update-issue.handler';
import { SavedSearchesController } from './api/saved-searches.controller';
import { CreateSavedSearchHandler } from './application/commands/create-saved-search/create-saved-search.handler';
import { UpdateSavedSearchHandler } from './application/commands/update-saved-search/update-saved-search.handler';
import { DeleteSavedSearchHandler } from './application/commands/delete-saved-search/delete-saved-search.handler';
import { SavedSearchesRepository } from './infrastructure/saved-searches.repository';
import { BookmarkIssuesHandler } from './application/commands/bookmark-issues/bookmark-issues.handler';
import { IssueBookmarksRepository } from './infrastructure/issue-bookmarks.repository';
import { MergeIssuesHandler } from './application/commands/merge-issues/merge-issues.handler';
import { IssueMergesRepository } from './infrastructure/issue-merges.repository';
import { IssueEventMovesRepository } from './infrastructure/issue-event-moves.repository';
import { IssueEventMovesWorker } from './infrastructure/issue-event-moves.worker';
import { UnmergeIssueHandler } from './application/commands/unmerge-issue/unmerge-issue.handler';
import { IssuePeople } from './infrastructure/issue-people.repository';
import { FindIssueHandler } from './application/queries/find-issue.handler';
import { IssueReadModel } from './infrastructure/issue-read-model.repository';
import { IssueIngestion } from './contracts/issue-ingestion';
import { IssueWebhookPayloads } from './contracts/issue-webhook-payloads';
import { UserReportIntake } from './contracts/user-report-intake';
import { IssueOccurrences } from './contracts/issue-occurrences';
import { IssueOccurrencesService } from './infrastructure/issue-occurrences.service';
import { IssueIngestionService } from './infrastructure/issue-ingestion.service';
import { EventRetentionRepository } from './infrastructure/event-retention.repository';
import { EventPartitionsRepository } from './infrastructure/event-partitions.repository';
import { EventPartitionsWorker } from './infrastructure/event-partitions.worker';
import { EventSearchReader } from './infrastructure/event-search.repository';
import { IssueRepository } from './infrastructure/issue.repository';
import { IssueWebhookPayloadsRepository } from './infrastructure/issue-webhook-payloads.repository';
import { UserReportsRepository } from './infrastructure/user-reports.repository';
import { IssueTopFrames } from './contracts/issue-top-frames';
import { IssueTopFramesRepository } from './infrastructure/issue-top-frames.repository';
import { RetentionSchedule, WorkerHost } from '@faultline/platform';
import { LatestReleases } from './contracts/latest-releases';
import { LatestReleasesService } from './infrastructure/latest-releases.service';

@Module({
  imports: [CqrsModule, EventStoreModule, IdentityModule, ProjectsModule, ReleasesModule],
  controllers: [
    IssuesController,
    IssueEventsController,
    IssueTagsController,
    OrganizationEventsController,
    UserReportsController,
    EventAttachmentsController,
    SavedSearchesController,
  ],
  providers: [
    IssueRepository,
    EventRetentionRepository,
    EventPartitionsRepository,
    EventPartitionsWorker,
    IssueIngestionService,
    { provide: IssueIngestion, useExisting: IssueIngestionService },
    IssueOccurrencesService,
    { provide: IssueOccurrences, useExisting: IssueOccurrencesService },
    { provide: IssueWebhookPayloads, useClass: IssueWebhookPayloadsRepository },
    UserReportsRepository,
    attachmentsConfigProvider,
    EventAttachmentsRepository,
    { provide: EventAttachmentIntake, useExisting: EventAttachmentsRepository },
    { provide: UserReportIntake, useExisting: UserReportsRepository },
    { provide: IssueTopFrames, useClass: IssueTopFramesRepository },
    { provide: LatestReleases, useClass: LatestReleasesService },
    IssueReadModel,
    EventSearchReader,
    FindIssueHandler,
    IssuePeople,
    UpdateIssueHandler,
    IssueBookmarksRepository,
    BookmarkIssuesHandler,
    SavedSearchesRepository,
    CreateSavedSearchHandler,
    UpdateSavedSearchHandler,
    DeleteSavedSearchHandler,
    DeleteIssueHandler,
    IssueMergesRepository,
    MergeIssuesHandler,
    IssueEventMovesRepository,
    IssueEventMovesWorker,
    UnmergeIssueHandler,
    AddIssueCommentHandler,
    EditIssueCommentHandler,
    DeleteIssueCommentHandler,
  ],
  exports: [IssueIngestion, IssueOccurrences, IssueWebhookPayloads, UserReportIntake, EventAttachmentIntake, IssueTopFrames, LatestReleases],
})
export class IssuesModule implements OnModuleInit {
  constructor(
    private readonly retention: RetentionSchedule,
    private readonly eventRetention: EventRetentionRepository,
    private readonly moves: IssueEventMovesWorker,
    private readonly workers: WorkerHost,
    private readonly eventPartitions: EventPartitionsWorker,
  ) {}

  onModuleInit(): void {
    this.retention.register(this.eventRetention);
    this.workers.register(this.moves);
    this.workers.register(this.eventPartitions);
  }
}
