import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { OrganizationStorage } from '../../../infrastructure/organization-storage.repository';
import { DeleteReleaseFileCommand } from './delete-release-file.command';

@CommandHandler(DeleteReleaseFileCommand)
export class DeleteReleaseFileHandler implements ICommandHandler<DeleteReleaseFileCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    private readonly storage: OrganizationStorage,
  ) {}

  async execute({ organizationId, version, fileId }: DeleteReleaseFileCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const file = await this.artifacts.findReleaseFile(tx, organizationId, version, fileId);
      if (!file) throw DomainError.notFound();
      const checksum = await this.artifacts.deleteReleaseFile(tx, organizationId, fileId);
      if (checksum) await this.storage.free(tx, organizationId, await this.artifacts.dropUnusedFiles(tx, organizationId, [checksum]));
    });
  }
}
