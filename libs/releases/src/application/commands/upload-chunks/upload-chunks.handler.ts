import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { OrganizationStorage } from '../../../infrastructure/organization-storage.repository';
import { UploadChunksCommand } from './upload-chunks.command';

@CommandHandler(UploadChunksCommand)
export class UploadChunksHandler implements ICommandHandler<UploadChunksCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    private readonly storage: OrganizationStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The chunks count against the organization's storage quota until their bundle is assembled (or they are abandoned). */
  async execute({ organizationId, chunks }: UploadChunksCommand): Promise<void> {
    const now = this.clock.now();
    await this.database.transaction(async (tx) => {
      await this.storage.charge(tx, organizationId, await this.artifacts.saveChunks(tx, organizationId, chunks, now));
    });
    // Apart from the upload's transaction, so it never holds another organization's usage row.
    await this.database.transaction(async (tx) => {
      for (const dropped of await this.artifacts.dropAbandonedChunks(tx, now)) await this.storage.free(tx, dropped.organizationId, dropped.bytes);
    });
  }
}
