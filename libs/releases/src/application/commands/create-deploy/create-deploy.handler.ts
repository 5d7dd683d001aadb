import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { RELEASE_STREAM_TYPE, releaseEvent, ReleaseEventTypes, releaseStream } from '../../../domain/release.events';
import { type DeployJson, ReleasesRepository } from '../../../infrastructure/releases.repository';
import { CreateDeployCommand } from './create-deploy.command';

@CommandHandler(CreateDeployCommand)
export class CreateDeployHandler implements ICommandHandler<CreateDeployCommand, DeployJson> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly recorder: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, version, deploy, actorId }: CreateDeployCommand): Promise<DeployJson> {
    const dateFinished = deploy.dateFinished ?? this.clock.now();
    if (deploy.dateStarted && deploy.dateStarted > dateFinished) throw DomainError.invalid('dateStarted must not be after dateFinished.');
    return this.database.transaction(async (tx) => {
      const release = await this.releases.find(tx, organizationId, version);
      if (!release) throw DomainError.notFound();
      const created = await this.releases.addDeploy(tx, release.id, { ...deploy, dateFinished });
      await this.recorder.record(tx, releaseStream(release.id), RELEASE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.DeployCreated, { releaseId: release.id, deployId: created.id, environment: deploy.environment, actorId }),
      ]);
      return created;
    });
  }
}
