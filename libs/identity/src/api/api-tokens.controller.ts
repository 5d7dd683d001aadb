import { isNumericId } from '@faultline/kernel';
import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { CreateApiTokenCommand } from '../application/commands/create-api-token/create-api-token.command';
import type { CreatedApiToken } from '../application/commands/create-api-token/create-api-token.handler';
import { RevokeApiTokenCommand } from '../application/commands/revoke-api-token/revoke-api-token.command';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { CreateApiTokenDto, CreateOrgTokenDto, RevokeApiTokenDto } from './identity.dto';
import { serializeOrgToken, serializeUserToken } from './identity.serializers';

function userOf(principal: Principal): string {
  if (principal.kind !== 'user' || !principal.userId) {
    throw new ForbiddenException({ detail: 'This endpoint manages user tokens; authenticate with a user token.' });
  }
  return principal.userId;
}

/** User tokens: `/api/0/api-tokens/`. The token is shown once, when created. */
@ApiTags('API tokens')
@ApiBearerAuth()
@Controller('api/0')
export class ApiTokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  @Get('api-tokens')
  @RequireScopes()
  async list(@CurrentPrincipal() principal: Principal, @Paginate() page: Pagination) {
    const rows = await this.repository.listTokens(this.database, { userId: userOf(principal) }, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => serializeUserToken(row));
  }

  @Post('api-tokens')
  @RequireScopes()
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiTokenDto) {
    const created = await this.commands.execute<CreateApiTokenCommand, CreatedApiToken>(
      new CreateApiTokenCommand('user', { userId: userOf(principal) }, body.name ?? '', body.scopes, principal.scopes),
    );
    return serializeUserToken(created.row, created.plaintext);
  }

  /** Sentry's form: the token id in the body or the query string. */
  @Delete('api-tokens')
  @HttpCode(204)
  @RequireScopes()
  async revokeByBody(@CurrentPrincipal() principal: Principal, @Body() body: RevokeApiTokenDto | undefined, @Query('tokenId') tokenId?: string) {
    const id = tokenId ?? body?.tokenId;
    if (!id || !isNumericId(id)) throw new NotFoundException();
    await this.commands.execute(new RevokeApiTokenCommand(id, { userId: userOf(principal) }));
  }

  @Delete('api-tokens/:token_id')
  @HttpCode(204)
  @RequireScopes()
  async revoke(@CurrentPrincipal() principal: Principal, @Param('token_id') tokenId: string) {
    await this.commands.execute(new RevokeApiTokenCommand(tokenId, { userId: userOf(principal) }));
  }
}

/** Organization tokens: reach only their organization. */
@ApiTags('API tokens')
@ApiBearerAuth()
@Controller('api/0')
export class OrgAuthTokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/org-auth-tokens')
  @RequireScopes('org:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const rows = await this.repository.listTokens(this.database, { organizationId: organization.id }, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => serializeOrgToken(row));
  }

  @Post('organizations/:organization_id_or_slug/org-auth-tokens')
  @RequireScopes('org:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @Body() body: CreateOrgTokenDto) {
    const created = await this.commands.execute<CreateApiTokenCommand, CreatedApiToken>(
      new CreateApiTokenCommand('organization', { organizationId: organization.id }, body.name, body.scopes, organization.scopes),
    );
    return serializeOrgToken(created.row, created.plaintext);
  }

  @Get('organizations/:organization_id_or_slug/org-auth-tokens/:token_id')
  @RequireScopes('org:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('token_id') tokenId: string) {
    const row = await this.repository.findToken(this.database, { organizationId: organization.id }, tokenId);
    if (!row) throw new NotFoundException();
    return serializeOrgToken(row);
  }

  @Delete('organizations/:organization_id_or_slug/org-auth-tokens/:token_id')
  @HttpCode(204)
  @RequireScopes('org:write')
  async revoke(@CurrentOrganization() organization: OrganizationAccess, @Param('token_id') tokenId: string) {
    await this.commands.execute(new RevokeApiTokenCommand(tokenId, { organizationId: organization.id }));
  }
}
