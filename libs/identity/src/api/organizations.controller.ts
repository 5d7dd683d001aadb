import { Body, Controller, ForbiddenException, Get, HttpCode, Inject, NotFoundException, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  APP_CONFIG,
  type AppConfig,
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
  dataPrivacyChanges,
} from '@faultline/platform';
import { CreateOrganizationCommand } from '../application/commands/create-organization/create-organization.command';
import { UpdateOrganizationCommand } from '../application/commands/update-organization/update-organization.command';
import { ROLE_SCOPES } from '../domain/roles';
import { dataPrivacyOf, IdentityRepository, type OrganizationRow } from '../infrastructure/identity.repository';
import { CreateOrganizationDto, UpdateOrganizationDto } from './identity.dto';
import { fromAccess, fromRow, serializeOrganization, serializeOrganizationDetail } from './identity.serializers';

@ApiTags('Organizations')
@ApiBearerAuth()
@Controller('api/0')
export class OrganizationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `show=all` (Sentry's) lists every organization of the instance, for instance administrators. */
  @Get('organizations')
  @RequireScopes('org:read')
  async list(@CurrentPrincipal() principal: Principal, @Paginate() page: Pagination, @Query('query') query?: string, @Query('show') show?: string) {
    const rows = await this.repository.listOrganizations(
      this.database,
      { userId: principal.userId, organizationId: principal.organizationId, all: show === 'all' && principal.isSuperuser },
      query || undefined,
      page.offset,
      page.fetchLimit,
    );
    return page.respond(rows).map((row) => serializeOrganization(fromRow(row), this.config.publicUrl));
  }

  @Post('organizations')
  @RequireScopes('org:write')
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOrganizationDto) {
    if (principal.kind !== 'user' || !principal.userId) {
      throw new ForbiddenException({ detail: 'Only user tokens can create organizations.' });
    }
    const row = await this.commands.execute<CreateOrganizationCommand, OrganizationRow>(new CreateOrganizationCommand(body.name, body.slug, principal.userId));
    return serializeOrganizationDetail(fromRow(row), this.config.publicUrl, { role: 'owner', scopes: ROLE_SCOPES.owner }, row, dataPrivacyOf(row));
  }

  @Get('organizations/:organization_id_or_slug')
  @RequireScopes('org:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess) {
    const row = await this.repository.findOrganization(this.database, organization.id);
    if (!row) throw new NotFoundException();
    return serializeOrganizationDetail(fromAccess(organization), this.config.publicUrl, organization, row, dataPrivacyOf(row));
  }

  @Put('organizations/:organization_id_or_slug')
  @HttpCode(200)
  @RequireScopes('org:write')
  async update(@CurrentPrincipal() principal: Principal, @CurrentOrganization() organization: OrganizationAccess, @Body() body: UpdateOrganizationDto) {
    const row = await this.commands.execute<UpdateOrganizationCommand, OrganizationRow>(
      new UpdateOrganizationCommand(organization.id, { ...body, ...dataPrivacyChanges(body) }, principal.isSuperuser, principal.userId),
    );
    return serializeOrganizationDetail(fromRow(row), this.config.publicUrl, organization, row, dataPrivacyOf(row));
  }
}
