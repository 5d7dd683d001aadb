import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { BundleError, bundleIdOf, sourceMapReference } from '../../../domain/bundle-manifest';
import { ARTIFACT_BUNDLE_STREAM_TYPE, artifactBundleStream, releaseEvent, ReleaseEventTypes } from '../../../domain/release.events';
import { type BundleFile, readArtifactBundle } from '../../../infrastructure/artifact-bundle-reader';
import { StorageQuotaExceeded } from '../../../contracts/organization-storage-quota';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { sha1OffLoop } from '../../../infrastructure/off-loop';
import { OrganizationStorage } from '../../../infrastructure/organization-storage.repository';
import { RELEASES_CONFIG, type ReleasesConfig } from '../../../infrastructure/releases-config';
import { AssembleArtifactBundleCommand, type AssembleResult } from './assemble-artifact-bundle.command';

@CommandHandler(AssembleArtifactBundleCommand)
export class AssembleArtifactBundleHandler implements ICommandHandler<AssembleArtifactBundleCommand, AssembleResult> {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    private readonly recorder: EventRecorder,
    private readonly storage: OrganizationStorage,
    @Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Assembled at once, within the request: a bundle is read with limits, so this is bounded work. */
  async execute(command: AssembleArtifactBundleCommand): Promise<AssembleResult> {
    try {
      return await this.assemble(command);
    } catch (error) {
      // sentry-cli shows an assembly's detail, not the status of the request.
      if (error instanceof StorageQuotaExceeded) return failed((error.getResponse() as { detail: string }).detail);
      throw error;
    }
  }

  private async assemble(command: AssembleArtifactBundleCommand): Promise<AssembleResult> {
    const { organizationId, checksum, chunks } = command;
    const known = await this.artifacts.findBundle(this.database, organizationId, checksum);
    if (known) {
      await this.attach(command, known);
      return { state: 'ok', missingChunks: [], detail: null };
    }
    const missing = await this.artifacts.missingChunks(this.database, organizationId, chunks);
    if (missing.length > 0) return { state: 'not_found', missingChunks: missing, detail: null };
    const contents = await this.artifacts.chunkContents(this.database, organizationId, chunks);
    if (!contents) return { state: 'not_found', missingChunks: chunks.slice(), detail: null };
    const size = contents.reduce((sum, part) => sum + part.length, 0);
    if (size > this.config.maxBundleBytes) return failed(`The bundle is larger than ${this.config.maxBundleBytes} bytes.`);
    const zip = Buffer.concat(contents, size);
    if ((await sha1OffLoop(zip)) !== checksum) return failed('The chunks do not make up a file of the given checksum.');
    let read;
    try {
      read = await readArtifactBundle(zip, this.config.bundle);
    } catch (error) {
      if (error instanceof BundleError) return failed(`Invalid artifact bundle: ${error.message}`);
      throw error;
    }
    const files = read.files;
    const stored: Array<BundleFile & { checksum: string }> = [];
    for (const file of files)
      stored.push({ ...file, sourcemap: file.sourcemap ?? sourceMapReference(file.type, file.content), checksum: await sha1OffLoop(file.content) });
    await this.database.transaction(async (tx) => {
      // The chunks are freed before the files are charged: the bundle is counted once.
      await this.storage.free(tx, organizationId, await this.artifacts.dropChunks(tx, organizationId, chunks));
      const bundle = {
        organizationId,
        checksum,
        bundleId: bundleIdOf(read.manifest, checksum),
        release: command.release,
        dist: command.dist,
        projectIds: command.projectIds,
        now: this.clock.now(),
      };
      await this.storage.charge(tx, organizationId, await this.artifacts.saveBundle(tx, bundle, stored));
      await this.recorder.record(tx, artifactBundleStream(organizationId, checksum), ARTIFACT_BUNDLE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.ArtifactBundleAssembled, {
          organizationId,
          checksum,
          projectIds: command.projectIds,
          release: command.release,
          dist: command.dist,
          fileCount: files.length,
        }),
      ]);
    });
    return { state: 'ok', missingChunks: [], detail: null };
  }

  /** A bundle stored before (its chunks are gone) is attached to this release, dist and projects too, as Sentry does; again, idempotently. */
  private async attach(command: AssembleArtifactBundleCommand, bundleId: string): Promise<void> {
    const { organizationId, checksum } = command;
    await this.database.transaction(async (tx) => {
      const attached = await this.artifacts.attachBundle(tx, bundleId, {
        release: command.release,
        dist: command.dist,
        projectIds: command.projectIds,
        now: this.clock.now(),
      });
      if (!attached) return;
      await this.recorder.record(tx, artifactBundleStream(organizationId, checksum), ARTIFACT_BUNDLE_STREAM_TYPE, [
        releaseEvent(ReleaseEventTypes.ArtifactBundleAttached, {
          organizationId,
          checksum,
          projectIds: command.projectIds,
          release: command.release,
          dist: command.dist,
        }),
      ]);
    });
  }
}

function failed(detail: string): AssembleResult {
  return { state: 'error', missingChunks: [], detail };
}
