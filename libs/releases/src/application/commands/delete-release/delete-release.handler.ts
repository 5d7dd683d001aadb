import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { RELEASE_STREAM_TYPE, releaseEvent, ReleaseEventTypes, releaseStream } from '../../../domain/release.events';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { OrganizationStorage } from '../../../infrastructure/organization-storage.repository';
import { ReleasesRepository } from '../../../infrastructure/releases.repository';
import { DeleteReleaseCommand } from './delete-release.command';

@CommandHandler(DeleteReleaseCommand)
export class DeleteReleaseHandler implements ICommandHandler<DeleteReleaseCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly recorder: EventRecorder,
    private readonly artifacts: ArtifactsRepository,
    private readonly storage: OrganizationStorage,
  ) {}

  async execute({ organizationId, version, actorId }: DeleteReleaseCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const release = await this.releases.find(tx, organizationId, version);
      if (!release) throw DomainError.notFound();
      await this.releases.delete(tx, release.id);
      const files = await this.artifacts.deleteReleaseArtifacts(tx, organizationId, version);
      await this.storage.free(tx, organizationId, await this.artifacts.dropUnusedFiles(tx, organizationId, files));
      await this.recorder.record(tx, releaseStream(release.id), RELEASE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.ReleaseDeleted, { releaseId: release.id, organizationId, version, actorId }),
      ]);
    });
  }
}
