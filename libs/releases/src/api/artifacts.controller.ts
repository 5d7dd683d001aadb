import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig, CurrentOrganization, type OrganizationAccess, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { AssembleArtifactBundleCommand, type AssembleResult } from '../application/commands/assemble-artifact-bundle/assemble-artifact-bundle.command';
import { UploadChunksCommand } from '../application/commands/upload-chunks/upload-chunks.command';
import { releaseVersionProblem } from '../domain/release-version';
import { gunzipOffLoop, sha1OffLoop } from '../infrastructure/off-loop';
import { RELEASES_CONFIG, type ReleasesConfig } from '../infrastructure/releases-config';
import { readMultipart } from './multipart';
import { AssembleArtifactBundleDto } from './releases.dto';

const SHA1 = /^[0-9a-f]{40}$/;

/**
 * What sentry-cli uploads source maps through: chunks (content-addressed by SHA-1, deduplicated per
 * organization), then the assembly of an artifact bundle from them.
 */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class ArtifactsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
  ) {}

  /** sentry-cli's upload options: where and how big; `accept` says artifact bundles are understood. */
  @Get('organizations/:organization_id_or_slug/chunk-upload')
  @RequireScopes('project:releases', 'project:write')
  options(@CurrentOrganization() organization: OrganizationAccess) {
    return {
      url: `${this.app.publicUrl}/api/0/organizations/${organization.slug}/chunk-upload/`,
      chunkSize: this.config.chunkBytes,
      chunksPerRequest: this.config.chunksPerRequest,
      maxFileSize: this.config.maxBundleBytes,
      maxRequestSize: this.config.maxRequestBytes,
      concurrency: 4,
      hashAlgorithm: 'sha1',
      compression: ['gzip'],
      accept: ['release_files', 'artifact_bundles', 'sources'],
    };
  }

  @Post('organizations/:organization_id_or_slug/chunk-upload')
  @HttpCode(200)
  @RequireScopes('project:releases', 'project:write')
  async upload(@CurrentOrganization() organization: OrganizationAccess, @Req() request: FastifyRequest) {
    const parts = this.chunkParts(await readMultipart(request));
    const chunks: Array<{ checksum: string; content: Buffer }> = [];
    for (const { checksum, gzip, file } of parts) {
      const raw = Buffer.from(await file.arrayBuffer());
      const content = gzip ? await this.gunzip(raw) : raw;
      if (content.length > this.config.chunkBytes) throw new BadRequestException({ detail: `A chunk is larger than ${this.config.chunkBytes} bytes.` });
      if ((await sha1OffLoop(content)) !== checksum) throw new BadRequestException({ detail: `Chunk ${checksum} does not match its checksum.` });
      chunks.push({ checksum, content });
    }
    await this.commands.execute(new UploadChunksCommand(organization.id, chunks));
    return {};
  }

  /**
   * The parts, checked before any is read: at most `chunksPerRequest` of them (each inflating to at
   * most a chunk, so a request inflates to at most `maxRequestBytes`), each named by a distinct SHA-1.
   */
  private chunkParts(form: FormData): Array<{ checksum: string; gzip: boolean; file: File }> {
    const parts: Array<{ checksum: string; gzip: boolean; file: File }> = [];
    const seen = new Set<string>();
    for (const [field, value] of form.entries()) {
      if ((field !== 'file' && field !== 'file_gzip') || typeof value === 'string')
        throw new BadRequestException({ detail: `Unexpected form field ${field}.` });
      if (parts.length >= this.config.chunksPerRequest)
        throw new BadRequestException({ detail: `At most ${this.config.chunksPerRequest} chunks per request.` });
      const checksum = value.name.toLowerCase();
      if (!SHA1.test(checksum)) throw new BadRequestException({ detail: 'Each chunk must be named by its SHA-1 checksum.' });
      if (seen.has(checksum)) throw new BadRequestException({ detail: `Chunk ${checksum} is sent more than once.` });
      seen.add(checksum);
      parts.push({ checksum, gzip: field === 'file_gzip', file: value });
    }
    if (parts.length === 0) throw new BadRequestException({ detail: 'No chunks were uploaded.' });
    return parts;
  }

  @Post('organizations/:organization_id_or_slug/artifactbundle/assemble')
  @HttpCode(200)
  @RequireScopes('project:releases', 'project:write')
  async assemble(@CurrentOrganization() organization: OrganizationAccess, @Body() body: AssembleArtifactBundleDto): Promise<AssembleResult> {
    const checksum = body.checksum.toLowerCase();
    const chunks = body.chunks.map((chunk) => chunk.toLowerCase());
    if (!SHA1.test(checksum) || !chunks.every((chunk) => SHA1.test(chunk))) throw new BadRequestException({ detail: 'Checksums must be SHA-1 in hex.' });
    if (chunks.length * this.config.chunkBytes > this.config.maxBundleBytes + this.config.chunkBytes)
      throw new BadRequestException({ detail: `The bundle is larger than ${this.config.maxBundleBytes} bytes.` });
    if (body.projects.length === 0) throw new BadRequestException({ detail: 'projects: This field is required.' });
    const release = body.version || null;
    const problem = release ? releaseVersionProblem(release) : undefined;
    if (problem) throw new BadRequestException({ detail: problem });
    const projectIds: string[] = [];
    for (const slug of new Set(body.projects)) {
      try {
        projectIds.push((await requireProject(this.queries, organization.id, slug)).id);
      } catch {
        throw new BadRequestException({ detail: `Invalid project: ${slug}` });
      }
    }
    return this.commands.execute(new AssembleArtifactBundleCommand(organization.id, checksum, chunks, projectIds, release, body.dist || null));
  }

  /** A gzip chunk inflated to at most one chunk's size: a small body cannot become a large one. */
  private async gunzip(data: Buffer): Promise<Buffer> {
    try {
      return await gunzipOffLoop(data, this.config.chunkBytes);
    } catch {
      throw new BadRequestException({ detail: 'A compressed chunk cannot be inflated within the chunk size.' });
    }
  }
}
