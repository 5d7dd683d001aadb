import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { isNumericId } from '@faultline/kernel';
import { AssembleArtifactBundleCommand, type AssembleResult } from '../application/commands/assemble-artifact-bundle/assemble-artifact-bundle.command';
import { DeleteReleaseFileCommand } from '../application/commands/delete-release-file/delete-release-file.command';
import { UploadReleaseFileCommand } from '../application/commands/upload-release-file/upload-release-file.command';
import { ArtifactsRepository, type ReleaseFileRow } from '../infrastructure/artifacts.repository';
import { RELEASES_CONFIG, type ReleasesConfig } from '../infrastructure/releases-config';
import { type ReleaseRow, ReleasesRepository } from '../infrastructure/releases.repository';
import { readMultipart } from './multipart';
import { AssembleReleaseFilesDto } from './releases.dto';

const SHA1 = /^[0-9a-f]{40}$/;
const MAX_HEADERS = 20;

function serializeFile(file: ReleaseFileRow) {
  return {
    id: file.id,
    name: file.name,
    dist: file.dist,
    headers: file.sourcemap ? { Sourcemap: file.sourcemap } : {},
    size: file.size,
    sha1: file.sha1,
    dateCreated: new Date(file.date_added).toISOString(),
  };
}

/**
 * The legacy release-file API older sentry-cli versions and bundler plugins use: files uploaded
 * one by one under their URL, and release archives assembled from chunks for one release.
 */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class ReleaseFilesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly releases: ReleasesRepository,
    private readonly artifacts: ArtifactsRepository,
    @Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig,
  ) {}

  @Get('organizations/:organization_id_or_slug/releases/:version/files')
  @RequireScopes('project:read', 'project:releases')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Paginate() page: Pagination) {
    await this.release(organization.id, version);
    return page.respond(await this.artifacts.listReleaseFiles(this.database, organization.id, version, page.offset, page.fetchLimit)).map(serializeFile);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/releases/:version/files')
  @RequireScopes('project:read', 'project:releases')
  async listForProject(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') project: string,
    @Param('version') version: string,
    @Paginate() page: Pagination,
  ) {
    await this.projectRelease(organization.id, project, version);
    return page.respond(await this.artifacts.listReleaseFiles(this.database, organization.id, version, page.offset, page.fetchLimit)).map(serializeFile);
  }

  @Post('organizations/:organization_id_or_slug/releases/:version/files')
  @HttpCode(201)
  @RequireScopes('project:write', 'project:releases')
  async upload(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Req() request: FastifyRequest) {
    await this.release(organization.id, version);
    return this.store(organization.id, version, request);
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/releases/:version/files')
  @HttpCode(201)
  @RequireScopes('project:write', 'project:releases')
  async uploadForProject(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') project: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
  ) {
    await this.projectRelease(organization.id, project, version);
    return this.store(organization.id, version, request);
  }

  @Get('organizations/:organization_id_or_slug/releases/:version/files/:file_id')
  @RequireScopes('project:read', 'project:releases')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Param('file_id') fileId: string) {
    return serializeFile(await this.file(organization.id, version, fileId));
  }

  @Delete('organizations/:organization_id_or_slug/releases/:version/files/:file_id')
  @HttpCode(204)
  @RequireScopes('project:write', 'project:releases')
  async delete(@CurrentOrganization() organization: OrganizationAccess, @Param('version') version: string, @Param('file_id') fileId: string) {
    await this.file(organization.id, version, fileId);
    await this.commands.execute(new DeleteReleaseFileCommand(organization.id, version, fileId));
  }

  /** A release archive (a zip with `manifest.json`) assembled from uploaded chunks, for the release's projects. */
  @Post('organizations/:organization_id_or_slug/releases/:version/assemble')
  @HttpCode(200)
  @RequireScopes('project:write', 'project:releases')
  async assemble(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('version') version: string,
    @Body() body: AssembleReleaseFilesDto,
  ): Promise<AssembleResult> {
    const release = await this.release(organization.id, version);
    const checksum = body.checksum.toLowerCase();
    const chunks = body.chunks.map((chunk) => chunk.toLowerCase());
    if (!SHA1.test(checksum) || !chunks.every((chunk) => SHA1.test(chunk))) throw new BadRequestException({ detail: 'Checksums must be SHA-1 in hex.' });
    if (chunks.length * this.config.chunkBytes > this.config.maxBundleBytes + this.config.chunkBytes)
      throw new BadRequestException({ detail: `The archive is larger than ${this.config.maxBundleBytes} bytes.` });
    return this.commands.execute(
      new AssembleArtifactBundleCommand(
        organization.id,
        checksum,
        chunks,
        release.projects.map((p) => p.project_id),
        version,
        null,
      ),
    );
  }

  private async store(organizationId: string, version: string, request: FastifyRequest) {
    const form = await readMultipart(request);
    const file = form.get('file');
    if (!file || typeof file === 'string') throw new BadRequestException({ detail: 'Missing uploaded file' });
    const nameField = form.get('name');
    const name = typeof nameField === 'string' && nameField !== '' ? nameField : file.name;
    if (!name || name.length > 2048 || /[\r\n]/.test(name)) throw new BadRequestException({ detail: 'File name must be set and at most 2048 characters.' });
    const distField = form.get('dist');
    const dist = typeof distField === 'string' && distField !== '' ? distField : null;
    if (dist && dist.length > 64) throw new BadRequestException({ detail: 'Dist must be at most 64 characters.' });
    const headerFields = form.getAll('header').filter((value): value is string => typeof value === 'string');
    if (headerFields.length > MAX_HEADERS) throw new BadRequestException({ detail: `At most ${MAX_HEADERS} headers.` });
    const headers: Record<string, string> = {};
    for (const header of headerFields) {
      const colon = header.indexOf(':');
      if (colon <= 0) throw new BadRequestException({ detail: 'header value was not formatted correctly' });
      headers[header.slice(0, colon).trim().toLowerCase()] = header
        .slice(colon + 1)
        .trim()
        .slice(0, 2048);
    }
    if (file.size > this.config.bundle.maxFileBytes)
      throw new BadRequestException({ detail: `The file is larger than ${this.config.bundle.maxFileBytes} bytes.` });
    const content = Buffer.from(await file.arrayBuffer());
    const stored = await this.commands.execute<UploadReleaseFileCommand, ReleaseFileRow>(
      new UploadReleaseFileCommand(organizationId, version, { name, dist, headers, content }),
    );
    return serializeFile(stored);
  }

  private async release(organizationId: string, version: string): Promise<ReleaseRow> {
    const release = await this.releases.find(this.database, organizationId, version);
    if (!release) throw new NotFoundException();
    return release;
  }

  private async projectRelease(organizationId: string, projectIdOrSlug: string, version: string): Promise<ReleaseRow> {
    const project = await requireProject(this.queries, organizationId, projectIdOrSlug);
    const release = await this.release(organizationId, version);
    if (!release.projects.some((p) => p.project_id === project.id)) throw new NotFoundException();
    return release;
  }

  private async file(organizationId: string, version: string, fileId: string): Promise<ReleaseFileRow> {
    const file = isNumericId(fileId) ? await this.artifacts.findReleaseFile(this.database, organizationId, version, fileId) : null;
    if (!file) throw new NotFoundException();
    return file;
  }
}
