import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { RELEASE_STREAM_TYPE, releaseEvent, ReleaseEventTypes, releaseStream } from '../../../domain/release.events';
import { ReleasesRepository } from '../../../infrastructure/releases.repository';
import { DeleteReleaseCommand } from './delete-release.command';

@CommandHandler(DeleteReleaseCommand)
export class DeleteReleaseHandler implements ICommandHandler<DeleteReleaseCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ organizationId, version, actorId }: DeleteReleaseCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const release = await this.releases.find(tx, organizationId, version);
      if (!release) throw DomainError.notFound();
      await this.releases.delete(tx, release.id);
      await this.recorder.record(tx, releaseStream(release.id), RELEASE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.ReleaseDeleted, { releaseId: release.id, organizationId, version, actorId }),
      ]);
    });
  }
}
