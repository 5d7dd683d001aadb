import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { RELEASE_STREAM_TYPE, releaseEvent, ReleaseEventTypes, releaseStream } from '../../../domain/release.events';
import { releaseVersionProblem } from '../../../domain/release-version';
import { ReleasesRepository } from '../../../infrastructure/releases.repository';
import { requireKnownRepositories } from '../known-repositories';
import { CreateReleaseCommand } from './create-release.command';

@CommandHandler(CreateReleaseCommand)
export class CreateReleaseHandler implements ICommandHandler<CreateReleaseCommand, { id: string; created: boolean }> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly recorder: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    organizationId,
    version,
    projectIds,
    changes,
    commits,
    commitsFromRefs,
    actorId,
  }: CreateReleaseCommand): Promise<{ id: string; created: boolean }> {
    const problem = releaseVersionProblem(version);
    if (problem) throw DomainError.invalid(problem, { errors: { version: [problem] } });
    return this.database.transaction(
      async (tx) => {
        const result = await this.releases.createOrAddProjects(tx, organizationId, version, projectIds, changes, this.clock.now());
        if (commits && commitsFromRefs) await requireKnownRepositories(tx, this.releases, organizationId, commits);
        if (commits) await this.releases.setCommits(tx, organizationId, result.id, commits, this.clock.now());
        await this.recorder.record(tx, releaseStream(result.id), RELEASE_STREAM_TYPE, [
          releaseEvent(result.created ? ReleaseEventTypes.ReleaseCreated : ReleaseEventTypes.ReleaseUpdated, {
            releaseId: result.id,
            organizationId,
            version,
            projectIds,
            actorId,
          }),
        ]);
        return result;
      },
      { retries: 3 },
    );
  }
}
