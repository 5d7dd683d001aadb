import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { sourceMapReference } from '../../../domain/bundle-manifest';
import { ArtifactsRepository, type ReleaseFileRow } from '../../../infrastructure/artifacts.repository';
import { sha1OffLoop } from '../../../infrastructure/off-loop';
import { OrganizationStorage } from '../../../infrastructure/organization-storage.repository';
import { ReleasesRepository } from '../../../infrastructure/releases.repository';
import { UploadReleaseFileCommand } from './upload-release-file.command';

/** A file named `.map`, or sent as JSON, is a source map; one that names its map is minified. */
function artifactType(name: string, headers: Readonly<Record<string, string>>, sourcemap: string | null): string {
  if (/\.map($|\?)/.test(name) || /json/i.test(headers['content-type'] ?? '')) return 'source_map';
  return sourcemap ? 'minified_source' : 'source';
}

@CommandHandler(UploadReleaseFileCommand)
export class UploadReleaseFileHandler implements ICommandHandler<UploadReleaseFileCommand, ReleaseFileRow> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    private readonly artifacts: ArtifactsRepository,
    private readonly storage: OrganizationStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, version, file }: UploadReleaseFileCommand): Promise<ReleaseFileRow> {
    const checksum = await sha1OffLoop(file.content);
    return this.database.transaction(async (tx) => {
      const release = await this.releases.find(tx, organizationId, version);
      if (!release) throw DomainError.notFound();
      const now = this.clock.now();
      const bundleId = await this.artifacts.releaseFilesBundle(
        tx,
        organizationId,
        version,
        file.dist,
        release.projects.map((p) => p.project_id),
        now,
      );
      await this.storage.charge(tx, organizationId, await this.artifacts.storeFiles(tx, organizationId, [{ checksum, content: file.content }]));
      const declared = file.headers.sourcemap ?? file.headers['x-sourcemap'] ?? null;
      const sourcemap = declared ?? (/\.map($|\?)/.test(file.name) ? null : sourceMapReference('source', file.content));
      const added = await this.artifacts.addReleaseFile(
        tx,
        organizationId,
        bundleId,
        { name: file.name, dist: file.dist, type: artifactType(file.name, file.headers, sourcemap), sourcemap, checksum, content: file.content },
        now,
      );
      if (!added) throw DomainError.conflict('A file matching this name already exists for the given release');
      return added;
    });
  }
}
