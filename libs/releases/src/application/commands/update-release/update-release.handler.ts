import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { RELEASE_STREAM_TYPE, releaseEvent, ReleaseEventTypes, releaseStream } from '../../../domain/release.events';
import { ReleasesRepository } from '../../../infrastructure/releases.repository';
import { requireKnownRepositories } from '../known-repositories';
import { UpdateReleaseCommand } from './update-release.command';

@CommandHandler(UpdateReleaseCommand)
export class UpdateReleaseHandler implements ICommandHandler<UpdateReleaseCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly recorder: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, version, changes, commits, commitsFromRefs, actorId }: UpdateReleaseCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const release = await this.releases.find(tx, organizationId, version);
      if (!release) throw DomainError.notFound();
      await this.releases.update(tx, release.id, changes);
      if (commits && commitsFromRefs) await requireKnownRepositories(tx, this.releases, organizationId, commits);
      if (commits) await this.releases.setCommits(tx, organizationId, release.id, commits, this.clock.now());
      await this.recorder.record(tx, releaseStream(release.id), RELEASE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.ReleaseUpdated, { releaseId: release.id, organizationId, version, changes, commitCount: commits?.length, actorId }),
      ]);
    });
  }
}
