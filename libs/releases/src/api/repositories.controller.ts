import { BadRequestException, Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { CreateRepositoryCommand } from '../application/commands/create-repository/create-repository.command';
import { ReleasesRepository, type RepositoryRow } from '../infrastructure/releases.repository';
import { CreateRepositoryDto } from './releases.dto';

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'integrations:github': 'GitHub',
  'integrations:gitlab': 'GitLab',
  'integrations:bitbucket': 'Bitbucket',
};

export function serializeRepository(repository: RepositoryRow) {
  const provider = repository.provider ?? 'manual';
  return {
    id: repository.id,
    name: repository.name,
    url: repository.url,
    provider: { id: provider, name: PROVIDER_NAMES[provider] ?? provider },
    status: 'active',
    dateCreated: new Date(repository.date_created).toISOString(),
    integrationId: null,
    externalSlug: null,
    externalId: null,
  };
}

/**
 * The organization's repositories, as sentry-cli lists them before `releases set-commits`. There is
 * no provider integration: a repository is registered here (or by the first commit naming it), and
 * its commits are the ones CI reports.
 */
@ApiTags('Releases')
@ApiBearerAuth()
@Controller('api/0')
export class RepositoriesController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly releases: ReleasesRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/repos')
  @RequireScopes('org:read', 'project:releases')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    return page.respond(await this.releases.listRepositories(this.database, organization.id, page.offset, page.fetchLimit)).map(serializeRepository);
  }

  @Post('organizations/:organization_id_or_slug/repos')
  @HttpCode(201)
  @RequireScopes('org:write', 'org:integrations')
  async create(@CurrentOrganization() organization: OrganizationAccess, @Body() body: CreateRepositoryDto) {
    const name = body.name.trim();
    if (!name || /[\r\n]/.test(name)) throw new BadRequestException({ detail: 'name: Enter a repository name.' });
    const created = await this.commands.execute<CreateRepositoryCommand, RepositoryRow>(
      new CreateRepositoryCommand(organization.id, { name, url: body.url ?? null, provider: body.provider ?? null }),
    );
    return serializeRepository(created);
  }
}
