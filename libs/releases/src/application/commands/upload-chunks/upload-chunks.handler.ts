import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { UploadChunksCommand } from './upload-chunks.command';

@CommandHandler(UploadChunksCommand)
export class UploadChunksHandler implements ICommandHandler<UploadChunksCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, chunks }: UploadChunksCommand): Promise<void> {
    await this.database.transaction((tx) => this.artifacts.saveChunks(tx, organizationId, chunks, this.clock.now()));
  }
}
