import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { EventMetadata } from '@faultline/kernel';
import {
  APP_CONFIG,
  type AppConfig,
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { ConfigureAuthProviderCommand } from '../application/commands/configure-auth-provider/configure-auth-provider.command';
import type { ConfiguredAuthProvider } from '../application/commands/configure-auth-provider/configure-auth-provider.handler';
import { DeleteAuthProviderCommand } from '../application/commands/delete-auth-provider/delete-auth-provider.command';
import { type AuthProviderRow, AuthProviderRepository } from '../infrastructure/auth-provider.repository';
import { CreateAuthProviderDto, UpdateAuthProviderDto } from './auth-provider.dto';
import { attributeMapping } from '../domain/saml-sign-in';
import { SamlServiceProvider } from '../infrastructure/saml-service-provider';
import { OidcRelyingParty } from '../infrastructure/oidc-relying-party';
import { IdpMetadataImport } from '../application/idp-metadata-import';

const actor = (principal: Principal): EventMetadata =>
  principal.userId ? { actorType: 'user', actorId: principal.userId } : { actorType: 'application', actorId: `api-token-${principal.tokenId}` };

/** An organization's identity provider (SAML or OpenID Connect), and the switch that turns SCIM provisioning on. */
@ApiTags('Auth provider')
@ApiBearerAuth()
@Controller('api/0')
export class AuthProviderController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly repository: AuthProviderRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly serviceProvider: SamlServiceProvider,
    private readonly relyingParty: OidcRelyingParty,
    private readonly metadata: IdpMetadataImport,
  ) {}

  /** No provider is a valid state, not a missing resource: 204, as Sentry answers. */
  @Get('organizations/:organization_id_or_slug/auth-provider')
  @RequireScopes('org:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Res({ passthrough: true }) reply: FastifyReply) {
    const provider = await this.repository.find(this.database, organization.id);
    if (!provider) {
      void reply.status(204);
      return undefined;
    }
    return this.serialize(organization, provider);
  }

  @Post('organizations/:organization_id_or_slug/auth-provider')
  @HttpCode(201)
  @RequireScopes('org:write')
  async create(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateAuthProviderDto) {
    const result = await this.commands.execute<ConfigureAuthProviderCommand, ConfiguredAuthProvider>(
      new ConfigureAuthProviderCommand(organization.id, organization.plan, 'create', await this.metadata.resolve(body), actor(principal)),
    );
    return this.serialize(organization, result.provider, result.scimToken);
  }

  @Put('organizations/:organization_id_or_slug/auth-provider')
  @RequireScopes('org:write')
  async update(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: UpdateAuthProviderDto) {
    const result = await this.commands.execute<ConfigureAuthProviderCommand, ConfiguredAuthProvider>(
      new ConfigureAuthProviderCommand(organization.id, organization.plan, 'update', await this.metadata.resolve(body), actor(principal)),
    );
    return this.serialize(organization, result.provider, result.scimToken);
  }

  @Delete('organizations/:organization_id_or_slug/auth-provider')
  @HttpCode(204)
  @RequireScopes('org:write')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal) {
    await this.commands.execute(new DeleteAuthProviderCommand(organization.id, actor(principal)));
  }

  /** Faultline's camelCase fields, Sentry's snake_case ones, and the SCIM token only when just issued. */
  private serialize(organization: OrganizationAccess, provider: AuthProviderRow, scimToken?: string) {
    const serviceProvider = this.serviceProvider.urls(organization.slug);
    const protocol =
      provider.provider === 'oidc'
        ? {
            provider_name: 'OpenID Connect',
            issuer: provider.oidc_issuer,
            clientId: provider.oidc_client_id,
            // The secret is write-only: the answer says only whether one is stored.
            clientSecretSet: provider.oidc_client_secret_set,
            scopes: provider.oidc_scopes,
            // What the identity provider is given: the one callback of every organization.
            redirectUri: this.relyingParty.callbackUrl,
          }
        : {
            provider_name: 'SAML2',
            idpEntityId: provider.idp_entity_id,
            ssoUrl: provider.sso_url,
            x509cert: provider.x509cert,
            attributeMapping: attributeMapping(provider.attribute_mapping),
            serviceProvider: { entityId: serviceProvider.entityId, acsUrl: serviceProvider.acsUrl, metadataUrl: serviceProvider.entityId },
          };
    return {
      id: provider.id,
      provider: provider.provider,
      ...protocol,
      scimEnabled: provider.scim_enabled,
      scim_enabled: provider.scim_enabled,
      scimBaseUrl: provider.scim_enabled ? `${this.config.publicUrl}/api/0/organizations/${organization.slug}/scim/v2/` : null,
      scimTokenLastCharacters: provider.scim_token_last_characters,
      ...(scimToken ? { scimToken } : {}),
      ssoLoginUrl: serviceProvider.loginUrl,
      pending_links_count: 0,
      login_url: `${this.config.publicUrl}/organizations/${organization.slug}/`,
      default_role: provider.default_role,
      defaultRole: provider.default_role,
      require_link: true,
      dateCreated: provider.date_created.toISOString(),
      dateUpdated: provider.date_updated.toISOString(),
    };
  }
}
