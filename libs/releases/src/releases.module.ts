import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { FastifyInstance } from 'fastify';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { RetentionSchedule } from '@faultline/platform';
import { ArtifactBundlesController } from './api/artifact-bundles.controller';
import { ArtifactsController } from './api/artifacts.controller';
import { ReleaseFilesController } from './api/release-files.controller';
import { ReleasesController } from './api/releases.controller';
import { RepositoriesController } from './api/repositories.controller';
import { SessionsController } from './api/sessions.controller';
import { AssembleArtifactBundleHandler } from './application/commands/assemble-artifact-bundle/assemble-artifact-bundle.handler';
import { CreateDeployHandler } from './application/commands/create-deploy/create-deploy.handler';
import { CreateReleaseHandler } from './application/commands/create-release/create-release.handler';
import { CreateRepositoryHandler } from './application/commands/create-repository/create-repository.handler';
import { DeleteReleaseHandler } from './application/commands/delete-release/delete-release.handler';
import { UpdateReleaseHandler } from './application/commands/update-release/update-release.handler';
import { UploadChunksHandler } from './application/commands/upload-chunks/upload-chunks.handler';
import { DeleteReleaseFileHandler } from './application/commands/delete-release-file/delete-release-file.handler';
import { UploadReleaseFileHandler } from './application/commands/upload-release-file/upload-release-file.handler';
import { OrganizationStorageQuota } from './contracts/organization-storage-quota';
import { ReleaseSightings } from './contracts/release-sightings';
import { SessionIntake } from './contracts/session-intake';
import { SourceMapSymbolicator } from './contracts/source-map-symbolicator';
import { ArtifactsRepository } from './infrastructure/artifacts.repository';
import { OrganizationStorage } from './infrastructure/organization-storage.repository';
import { ProjectTransferRehoming } from './infrastructure/project-transfer-rehoming';
import { ReleaseSightingsService } from './infrastructure/release-sightings.service';
import { RELEASES_CONFIG, releasesConfigProvider, type ReleasesConfig } from './infrastructure/releases-config';
import { ReleasesRepository } from './infrastructure/releases.repository';
import { SessionHealthRepository } from './infrastructure/session-health.repository';
import { SessionRetentionRepository } from './infrastructure/session-retention.repository';
import { SourceMapSymbolicatorService } from './infrastructure/source-map-symbolicator';
import { ProjectSessionCounts } from './contracts/project-session-counts';
import { ProjectSessionCountsRepository } from './infrastructure/project-session-counts.repository';

/**
 * Releases (created by hand, by sentry-cli, or on the first event that names them), their deploys
 * and commits, the source-map artifacts uploaded for them, and the symbolication of JavaScript
 * frames through those maps, which ingest calls before grouping; and release health, from the
 * sessions ingest hands over.
 */
@Module({
  imports: [CqrsModule, EventStoreModule],
  controllers: [ReleasesController, ArtifactsController, ArtifactBundlesController, ReleaseFilesController, RepositoriesController, SessionsController],
  providers: [
    releasesConfigProvider,
    ReleasesRepository,
    ArtifactsRepository,
    OrganizationStorage,
    { provide: OrganizationStorageQuota, useExisting: OrganizationStorage },
    SessionHealthRepository,
    { provide: SessionIntake, useExisting: SessionHealthRepository },
    { provide: ProjectSessionCounts, useClass: ProjectSessionCountsRepository },
    { provide: ReleaseSightings, useClass: ReleaseSightingsService },
    { provide: SourceMapSymbolicator, useClass: SourceMapSymbolicatorService },
    CreateReleaseHandler,
    UpdateReleaseHandler,
    DeleteReleaseHandler,
    CreateDeployHandler,
    UploadChunksHandler,
    AssembleArtifactBundleHandler,
    UploadReleaseFileHandler,
    CreateRepositoryHandler,
    DeleteReleaseFileHandler,
    SessionRetentionRepository,
    ProjectTransferRehoming,
  ],
  exports: [ReleaseSightings, SourceMapSymbolicator, OrganizationStorageQuota, SessionIntake, ProjectSessionCounts],
})
export class ReleasesModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig,
    private readonly retention: RetentionSchedule,
    private readonly sessionRetention: SessionRetentionRepository,
    private readonly recorder: EventRecorder,
    private readonly rehoming: ProjectTransferRehoming,
  ) {}

  onModuleInit(): void {
    this.retention.register(this.sessionRetention);
    this.recorder.onAppended(this.rehoming.onAppended);
    // Chunk uploads are multipart bodies, up to the request size sentry-cli is told.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || fastify.hasContentTypeParser('multipart/form-data')) return;
    fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: this.config.maxRequestBytes }, (_request, body, done) =>
      done(null, body),
    );
  }
}
