import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { IntegrationTokens } from '@faultline/identity';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  Public,
  RequireScopes,
} from '@faultline/platform';
import { AuthorizeInstallationCommand, type AuthorizedToken } from '../application/commands/authorize-installation/authorize-installation.command';
import { InstallSentryAppCommand } from '../application/commands/install-sentry-app/install-sentry-app.command';
import { UninstallSentryAppCommand } from '../application/commands/uninstall-sentry-app/uninstall-sentry-app.command';
import { VerifyInstallationCommand } from '../application/commands/verify-installation/verify-installation.command';
import type { NewInstallation } from '../application/installer';
import { type InstallationView, InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationsAccess } from './integrations-access';
import { serializeInstallation } from './integrations.serializers';
import { InstallSentryAppDto, UpdateInstallationDto } from './sentry-apps.dto';

/** An organization's installations. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class OrganizationInstallationsController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly installations: InstallationsRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/sentry-app-installations')
  @RequireScopes('org:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const rows = await this.installations.listForOrganization(this.database, organization.id, page.offset, page.fetchLimit);
    return page.respond(rows).map((row) => serializeInstallation(row));
  }

  /** Installs an app: answers the installation with its grant code, and tells the app (`installation.created`). */
  @Post('organizations/:organization_id_or_slug/sentry-app-installations')
  @HttpCode(201)
  @RequireScopes('org:integrations')
  async install(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: InstallSentryAppDto) {
    const installed = await this.commands.execute<InstallSentryAppCommand, NewInstallation>(
      new InstallSentryAppCommand({ id: organization.id, slug: organization.slug }, body.slug, principal.userId ?? null, organization.scopes),
    );
    const row = (await this.installations.find(this.database, installed.installation.snapshot.uuid)) as InstallationView;
    return serializeInstallation(row, installed.code);
  }
}

/** One installation, its OAuth token endpoint. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class InstallationController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly installations: InstallationsRepository,
    private readonly tokens: IntegrationTokens,
    private readonly access: IntegrationsAccess,
  ) {}

  @Get('sentry-app-installations/:uuid')
  @RequireScopes()
  async detail(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string) {
    const installation = await this.live(uuid);
    if (!(await this.isInstallationToken(principal, installation))) await this.access.require(principal, String(installation.organization_id), 'org:read');
    return serializeInstallation(installation);
  }

  /** `{"status": "installed"}` with the installation's own token (or an organization manager's) verifies a pending install. */
  @Put('sentry-app-installations/:uuid')
  @RequireScopes()
  async update(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string, @Body() _body: UpdateInstallationDto) {
    const installation = await this.live(uuid);
    if (!(await this.isInstallationToken(principal, installation)))
      await this.access.require(principal, String(installation.organization_id), 'org:integrations');
    await this.commands.execute(new VerifyInstallationCommand(installation.uuid));
    return serializeInstallation((await this.installations.find(this.database, installation.uuid)) as InstallationView);
  }

  @Delete('sentry-app-installations/:uuid')
  @HttpCode(204)
  @RequireScopes()
  async uninstall(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string): Promise<void> {
    const installation = await this.live(uuid);
    await this.access.require(principal, String(installation.organization_id), 'org:integrations');
    await this.commands.execute(new UninstallSentryAppCommand(installation.uuid, principal.userId ?? null));
  }

  /** OAuth token endpoint: the client authenticates with its id and secret in the body, no bearer token. */
  @Post('sentry-app-installations/:uuid/authorizations')
  @HttpCode(201)
  @Public()
  async authorize(@Param('uuid') uuid: string, @Body() body: Record<string, unknown>) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestException({ detail: 'Request body must be a JSON object.' });
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
    return this.commands.execute<AuthorizeInstallationCommand, AuthorizedToken>(
      new AuthorizeInstallationCommand(uuid, {
        grantType: text('grant_type'),
        code: text('code'),
        refreshToken: text('refresh_token'),
        clientId: text('client_id'),
        clientSecret: text('client_secret'),
      }),
    );
  }

  private async live(uuid: string): Promise<InstallationView> {
    const installation = await this.installations.find(this.database, uuid);
    if (!installation || installation.status === 'deleted') throw new NotFoundException();
    return installation;
  }

  private async isInstallationToken(principal: Principal, installation: InstallationView): Promise<boolean> {
    return installation.token_ids.includes(principal.tokenId) && !!(await this.tokens.find(this.database, principal.tokenId));
  }
}
