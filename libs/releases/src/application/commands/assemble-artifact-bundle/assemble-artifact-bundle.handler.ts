import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { BundleError, sourceMapReference } from '../../../domain/bundle-manifest';
import { ARTIFACT_BUNDLE_STREAM_TYPE, artifactBundleStream, releaseEvent, ReleaseEventTypes } from '../../../domain/release.events';
import { readArtifactBundle } from '../../../infrastructure/artifact-bundle-reader';
import { ArtifactsRepository } from '../../../infrastructure/artifacts.repository';
import { RELEASES_CONFIG, type ReleasesConfig } from '../../../infrastructure/releases-config';
import { AssembleArtifactBundleCommand, type AssembleResult } from './assemble-artifact-bundle.command';

const sha1 = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

@CommandHandler(AssembleArtifactBundleCommand)
export class AssembleArtifactBundleHandler implements ICommandHandler<AssembleArtifactBundleCommand, AssembleResult> {
  constructor(
    private readonly database: Database,
    private readonly artifacts: ArtifactsRepository,
    private readonly recorder: EventRecorder,
    @Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Assembled at once, within the request: a bundle is read with limits, so this is bounded work. */
  async execute(command: AssembleArtifactBundleCommand): Promise<AssembleResult> {
    const { organizationId, checksum, chunks } = command;
    if (await this.artifacts.bundleExists(this.database, organizationId, checksum)) return { state: 'ok', missingChunks: [], detail: null };
    const missing = await this.artifacts.missingChunks(this.database, organizationId, chunks);
    if (missing.length > 0) return { state: 'not_found', missingChunks: missing, detail: null };
    const contents = await this.artifacts.chunkContents(this.database, organizationId, chunks);
    if (!contents) return { state: 'not_found', missingChunks: chunks.slice(), detail: null };
    const size = contents.reduce((sum, part) => sum + part.length, 0);
    if (size > this.config.maxBundleBytes) return failed(`The bundle is larger than ${this.config.maxBundleBytes} bytes.`);
    const zip = Buffer.concat(contents, size);
    if (sha1(zip) !== checksum) return failed('The chunks do not make up a file of the given checksum.');
    let files;
    try {
      files = await readArtifactBundle(zip, this.config.bundle);
    } catch (error) {
      if (error instanceof BundleError) return failed(`Invalid artifact bundle: ${error.message}`);
      throw error;
    }
    await this.database.transaction(async (tx) => {
      await this.artifacts.saveBundle(
        tx,
        { organizationId, checksum, release: command.release, dist: command.dist, projectIds: command.projectIds, now: this.clock.now() },
        files.map((file) => ({ ...file, sourcemap: file.sourcemap ?? sourceMapReference(file.type, file.content), checksum: sha1(file.content) })),
      );
      await this.artifacts.dropChunks(tx, organizationId, chunks);
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
}

function failed(detail: string): AssembleResult {
  return { state: 'error', missingChunks: [], detail };
}
